# id: ib_lcb_22
# entry_point: bucket_counts
# ---- prompt ----
from typing import Dict, List


def bucket_counts(values: List[float], width: float) -> Dict[int, int]:
    """ Put each value into the bucket floor(value / width) (width > 0) and return a dict from
    bucket index to the number of values in it, with only non-empty buckets, keys in ascending
    order.

    >>> bucket_counts([0.5, 1.5, 1.7, 3.0], 1.0)
    {0: 1, 1: 2, 3: 1}
    >>> bucket_counts([-0.1, 0.1], 0.5)
    {-1: 1, 0: 1}
    """

# ---- solution ----
import math
from typing import Dict, List


def bucket_counts(values: List[float], width: float) -> Dict[int, int]:
    counts: Dict[int, int] = {}
    for value in values:
        index = math.floor(value / width)
        counts[index] = counts.get(index, 0) + 1
    return dict(sorted(counts.items()))

# ---- test ----
def check(candidate):
    assert candidate([0.5, 1.5, 1.7, 3.0], 1.0) == {0: 1, 1: 2, 3: 1}
    assert candidate([-0.1, 0.1], 0.5) == {-1: 1, 0: 1}
    assert candidate([], 2.0) == {}
    assert candidate([10, 20, 25, 29.9, 30], 10) == {1: 1, 2: 3, 3: 1}
    assert candidate([-5, -5, -4.5], 2.5) == {-2: 3}
    assert list(candidate([9, 1, 5], 4)) == [0, 1, 2]
    assert candidate([0.25, 0.75, 1.0], 0.25) == {1: 1, 3: 1, 4: 1}
