# id: ib_lcb_26
# entry_point: sliding_window_max
# ---- prompt ----
from typing import List


def sliding_window_max(nums: List[int], k: int) -> List[int]:
    """ For each window of k consecutive values of nums (1 <= k), from left to right, give the
    window's maximum. When nums is shorter than k there are no windows. nums may hold up to
    10^5 values.

    >>> sliding_window_max([1, 3, -1, -3, 5, 3, 6, 7], 3)
    [3, 3, 5, 5, 6, 7]
    >>> sliding_window_max([4, 2], 3)
    []
    """

# ---- solution ----
from collections import deque
from typing import List


def sliding_window_max(nums: List[int], k: int) -> List[int]:
    window = deque()
    out: List[int] = []
    for i, x in enumerate(nums):
        while window and nums[window[-1]] <= x:
            window.pop()
        window.append(i)
        if window[0] <= i - k:
            window.popleft()
        if i >= k - 1:
            out.append(nums[window[0]])
    return out

# ---- test ----
def check(candidate):
    assert candidate([1, 3, -1, -3, 5, 3, 6, 7], 3) == [3, 3, 5, 5, 6, 7]
    assert candidate([4, 2], 3) == []
    assert candidate([9], 1) == [9]
    assert candidate([1, 2, 3, 4], 1) == [1, 2, 3, 4]
    assert candidate([5, 4, 3, 2, 1], 2) == [5, 4, 3, 2]
    assert candidate([2, 2, 2, 2], 4) == [2]
    assert candidate(list(range(100000)), 50000)[-1] == 99999
    assert len(candidate(list(range(100000)), 50000)) == 50001
