# id: ib_lcb_03
# entry_point: merge_ranges
# ---- prompt ----
from typing import List, Tuple


def merge_ranges(ranges: List[Tuple[int, int]]) -> List[Tuple[int, int]]:
    """ Merge closed integer ranges (lo, hi) with lo <= hi. Ranges that overlap or are adjacent
    (hi + 1 == next lo) become one. Return the merged ranges sorted by lo, as tuples.

    >>> merge_ranges([(1, 3), (2, 6), (8, 10)])
    [(1, 6), (8, 10)]
    >>> merge_ranges([(5, 5), (6, 7)])
    [(5, 7)]
    """

# ---- solution ----
from typing import List, Tuple


def merge_ranges(ranges: List[Tuple[int, int]]) -> List[Tuple[int, int]]:
    merged: List[Tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        if merged and lo <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged

# ---- test ----
def check(candidate):
    assert candidate([(1, 3), (2, 6), (8, 10)]) == [(1, 6), (8, 10)]
    assert candidate([(5, 5), (6, 7)]) == [(5, 7)]
    assert candidate([]) == []
    assert candidate([(10, 12), (1, 2)]) == [(1, 2), (10, 12)]
    assert candidate([(1, 10), (2, 3), (4, 5)]) == [(1, 10)]
    assert candidate([(-5, -1), (0, 0), (2, 4)]) == [(-5, 0), (2, 4)]
    assert candidate([(3, 4), (3, 4), (3, 4)]) == [(3, 4)]
