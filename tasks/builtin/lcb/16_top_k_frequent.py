# id: ib_lcb_16
# entry_point: top_k_frequent
# ---- prompt ----
from typing import List


def top_k_frequent(nums: List[int], k: int) -> List[int]:
    """ Return the k most frequent values in nums, most frequent first; values equally frequent
    are ordered from smallest to largest. If nums has fewer than k distinct values, return them
    all.

    >>> top_k_frequent([1, 1, 1, 2, 2, 3], 2)
    [1, 2]
    >>> top_k_frequent([4, 4, 5, 5, 6], 2)
    [4, 5]
    """

# ---- solution ----
from collections import Counter
from typing import List


def top_k_frequent(nums: List[int], k: int) -> List[int]:
    counts = Counter(nums)
    return sorted(counts, key=lambda v: (-counts[v], v))[:k]

# ---- test ----
def check(candidate):
    assert candidate([1, 1, 1, 2, 2, 3], 2) == [1, 2]
    assert candidate([4, 4, 5, 5, 6], 2) == [4, 5]
    assert candidate([], 3) == []
    assert candidate([9], 1) == [9]
    assert candidate([3, 1, 2], 5) == [1, 2, 3]
    assert candidate([-1, -1, 2, 2, 2, 0], 3) == [2, -1, 0]
    assert candidate([7, 7, 8, 8, 9, 9, 9], 1) == [9]
