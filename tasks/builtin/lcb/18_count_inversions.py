# id: ib_lcb_18
# entry_point: count_inversions
# ---- prompt ----
from typing import List


def count_inversions(nums: List[int]) -> int:
    """ Count the pairs of positions i < j with nums[i] > nums[j]. nums may hold up to 10^5
    values, so the count must be found faster than by checking every pair.

    >>> count_inversions([2, 4, 1, 3, 5])
    3
    >>> count_inversions([1, 2, 3])
    0
    """

# ---- solution ----
from typing import List


def count_inversions(nums: List[int]) -> int:
    def sort(xs: List[int]):
        if len(xs) <= 1:
            return xs, 0
        mid = len(xs) // 2
        left, a = sort(xs[:mid])
        right, b = sort(xs[mid:])
        merged, count, i, j = [], a + b, 0, 0
        while i < len(left) and j < len(right):
            if left[i] <= right[j]:
                merged.append(left[i])
                i += 1
            else:
                merged.append(right[j])
                count += len(left) - i
                j += 1
        merged.extend(left[i:])
        merged.extend(right[j:])
        return merged, count

    return sort(list(nums))[1]

# ---- test ----
def check(candidate):
    assert candidate([2, 4, 1, 3, 5]) == 3
    assert candidate([1, 2, 3]) == 0
    assert candidate([]) == 0
    assert candidate([3, 2, 1]) == 3
    assert candidate([1, 1, 1]) == 0
    assert candidate([5, 4, 3, 2, 1, 0]) == 15
    assert candidate(list(range(2000, 0, -1))) == 1999000
    assert candidate([2, 1] * 3) == 6
