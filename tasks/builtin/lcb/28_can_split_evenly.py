# id: ib_lcb_28
# entry_point: can_split_evenly
# ---- prompt ----
from typing import List


def can_split_evenly(nums: List[int]) -> bool:
    """ Return True when the non-negative integers in nums can be divided into two groups with
    equal sums (every number in exactly one group; a group may be empty), else False.

    >>> can_split_evenly([1, 5, 11, 5])
    True
    >>> can_split_evenly([1, 2, 5])
    False
    """

# ---- solution ----
from typing import List


def can_split_evenly(nums: List[int]) -> bool:
    total = sum(nums)
    if total % 2:
        return False
    reachable = {0}
    for n in nums:
        reachable |= {r + n for r in reachable if r + n <= total // 2}
    return total // 2 in reachable

# ---- test ----
def check(candidate):
    assert candidate([1, 5, 11, 5]) == True
    assert candidate([1, 2, 5]) == False
    assert candidate([]) == True
    assert candidate([0, 0]) == True
    assert candidate([7]) == False
    assert candidate([3, 3, 3, 4, 5]) == True
    assert candidate([2, 2, 3, 5]) == False
    assert candidate([100, 1, 99, 2, 2]) == True
