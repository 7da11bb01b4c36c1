# id: ib_lcb_19
# entry_point: longest_increasing
# ---- prompt ----
from typing import List


def longest_increasing(nums: List[int]) -> int:
    """ Return the length of the longest strictly increasing subsequence of nums (not
    necessarily contiguous). nums may hold up to 10^5 values.

    >>> longest_increasing([10, 9, 2, 5, 3, 7, 101, 18])
    4
    >>> longest_increasing([7, 7, 7])
    1
    """

# ---- solution ----
from bisect import bisect_left
from typing import List


def longest_increasing(nums: List[int]) -> int:
    tails: List[int] = []
    for x in nums:
        i = bisect_left(tails, x)
        if i == len(tails):
            tails.append(x)
        else:
            tails[i] = x
    return len(tails)

# ---- test ----
def check(candidate):
    assert candidate([10, 9, 2, 5, 3, 7, 101, 18]) == 4
    assert candidate([7, 7, 7]) == 1
    assert candidate([]) == 0
    assert candidate([0, 1, 0, 3, 2, 3]) == 4
    assert candidate([5, 4, 3, 2, 1]) == 1
    assert candidate([-2, -1, -3, 0, 4, 1, 2, 3]) == 6
    assert candidate(list(range(0, 30000, 3)) + list(range(1, 100))) == 10000
