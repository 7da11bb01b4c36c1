# id: ib_lcb_15
# entry_point: flatten_dict
# ---- prompt ----
from typing import Any, Dict


def flatten_dict(data: Dict[str, Any], sep: str = ".") -> Dict[str, Any]:
    """ Flatten nested dicts: a value that is itself a non-empty dict is replaced by its own
    entries, with keys joined by sep. Empty dicts and all other values (lists included) are kept
    as they are. Keys keep the order in which they are first met.

    >>> flatten_dict({"a": 1, "b": {"c": 2, "d": {"e": 3}}})
    {'a': 1, 'b.c': 2, 'b.d.e': 3}
    >>> flatten_dict({"x": {}}, sep="/")
    {'x': {}}
    """

# ---- solution ----
from typing import Any, Dict


def flatten_dict(data: Dict[str, Any], sep: str = ".") -> Dict[str, Any]:
    out: Dict[str, Any] = {}

    def walk(prefix: str, value: Dict[str, Any]) -> None:
        for key, item in value.items():
            name = f"{prefix}{sep}{key}" if prefix else key
            if isinstance(item, dict) and item:
                walk(name, item)
            else:
                out[name] = item

    walk("", data)
    return out

# ---- test ----
def check(candidate):
    assert candidate({"a": 1, "b": {"c": 2, "d": {"e": 3}}}) == {"a": 1, "b.c": 2, "b.d.e": 3}
    assert candidate({"x": {}}, sep="/") == {"x": {}}
    assert candidate({}) == {}
    assert candidate({"k": [1, {"n": 2}]}) == {"k": [1, {"n": 2}]}
    assert candidate({"a": {"b": None}}, sep="__") == {"a__b": None}
    assert list(candidate({"z": {"y": 1}, "a": 2})) == ["z.y", "a"]
    assert candidate({"p": {"q": {"r": {"s": "deep"}}}}) == {"p.q.r.s": "deep"}
