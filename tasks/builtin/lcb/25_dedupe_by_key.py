# id: ib_lcb_25
# entry_point: dedupe_by_key
# ---- prompt ----
from typing import Any, Dict, List


def dedupe_by_key(records: List[Dict[str, Any]], key: str) -> List[Dict[str, Any]]:
    """ Keep the first record for each value of records[i][key], in their original order.
    Records that lack the key are all kept. The records themselves are returned unchanged.

    >>> dedupe_by_key([{"id": 1, "v": "a"}, {"id": 1, "v": "b"}, {"id": 2}], "id")
    [{'id': 1, 'v': 'a'}, {'id': 2}]
    >>> dedupe_by_key([{"x": 1}, {"x": 1}], "id")
    [{'x': 1}, {'x': 1}]
    """

# ---- solution ----
from typing import Any, Dict, List


def dedupe_by_key(records: List[Dict[str, Any]], key: str) -> List[Dict[str, Any]]:
    seen = []
    out = []
    for record in records:
        if key not in record:
            out.append(record)
            continue
        value = record[key]
        if value in seen:
            continue
        seen.append(value)
        out.append(record)
    return out

# ---- test ----
def check(candidate):
    assert candidate([{"id": 1, "v": "a"}, {"id": 1, "v": "b"}, {"id": 2}], "id") == [{"id": 1, "v": "a"}, {"id": 2}]
    assert candidate([{"x": 1}, {"x": 1}], "id") == [{"x": 1}, {"x": 1}]
    assert candidate([], "id") == []
    assert candidate([{"k": None}, {"k": None}, {"k": 0}], "k") == [{"k": None}, {"k": 0}]
    assert candidate([{"k": [1]}, {"k": [1]}, {"k": [2]}], "k") == [{"k": [1]}, {"k": [2]}]
    assert candidate([{"k": "b"}, {"z": 1}, {"k": "a"}, {"k": "b"}], "k") == [{"k": "b"}, {"z": 1}, {"k": "a"}]
    assert len(candidate([{"n": i % 3} for i in range(10)], "n")) == 3
