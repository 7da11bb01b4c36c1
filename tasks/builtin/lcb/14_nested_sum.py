# id: ib_lcb_14
# entry_point: nested_sum
# ---- prompt ----
from typing import Any


def nested_sum(data: Any) -> int:
    """ Sum every integer found anywhere inside data, which may be an int, a list, a tuple or a
    dict (whose values, not keys, are searched), nested to any depth. Booleans are not counted
    as integers, and strings, floats and None are ignored.

    >>> nested_sum([1, [2, 3], {"a": 4}])
    10
    >>> nested_sum({"x": True, "y": "5", "z": None})
    0
    """

# ---- solution ----
from typing import Any


def nested_sum(data: Any) -> int:
    if isinstance(data, bool):
        return 0
    if isinstance(data, int):
        return data
    if isinstance(data, dict):
        return sum(nested_sum(v) for v in data.values())
    if isinstance(data, (list, tuple)):
        return sum(nested_sum(v) for v in data)
    return 0

# ---- test ----
def check(candidate):
    assert candidate([1, [2, 3], {"a": 4}]) == 10
    assert candidate({"x": True, "y": "5", "z": None}) == 0
    assert candidate(7) == 7
    assert candidate([]) == 0
    assert candidate({1: 100, 2: [3, (4, 5)]}) == 112
    assert candidate([[[[-6]]], 2.5, [False, 1]]) == -5
    assert candidate({"a": {"b": {"c": {"d": 9}}}}) == 9
