# id: ib_lcb_17
# entry_point: next_permutation
# ---- prompt ----
from typing import List


def next_permutation(nums: List[int]) -> List[int]:
    """ Return the next permutation of nums in lexicographic order, as a new list. The
    permutation after the largest one wraps around to the smallest (sorted ascending). nums may
    contain repeated values.

    >>> next_permutation([1, 2, 3])
    [1, 3, 2]
    >>> next_permutation([3, 2, 1])
    [1, 2, 3]
    """

# ---- solution ----
from typing import List


def next_permutation(nums: List[int]) -> List[int]:
    out = list(nums)
    i = len(out) - 2
    while i >= 0 and out[i] >= out[i + 1]:
        i -= 1
    if i < 0:
        return sorted(out)
    j = len(out) - 1
    while out[j] <= out[i]:
        j -= 1
    out[i], out[j] = out[j], out[i]
    out[i + 1:] = reversed(out[i + 1:])
    return out

# ---- test ----
def check(candidate):
    assert candidate([1, 2, 3]) == [1, 3, 2]
    assert candidate([3, 2, 1]) == [1, 2, 3]
    assert candidate([1, 1, 5]) == [1, 5, 1]
    assert candidate([]) == []
    assert candidate([4]) == [4]
    assert candidate([1, 3, 2]) == [2, 1, 3]
    assert candidate([2, 3, 3, 1]) == [3, 1, 2, 3]
    assert candidate([5, 1, 1]) == [1, 1, 5]
