# id: ib_lcb_10
# entry_point: spiral_order
# ---- prompt ----
from typing import List


def spiral_order(matrix: List[List[int]]) -> List[int]:
    """ Return the elements of a rectangular matrix in clockwise spiral order, starting at the
    top-left corner and going right first.

    >>> spiral_order([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    [1, 2, 3, 6, 9, 8, 7, 4, 5]
    >>> spiral_order([])
    []
    """

# ---- solution ----
from typing import List


def spiral_order(matrix: List[List[int]]) -> List[int]:
    out: List[int] = []
    if not matrix or not matrix[0]:
        return out
    top, bottom, left, right = 0, len(matrix) - 1, 0, len(matrix[0]) - 1
    while top <= bottom and left <= right:
        out.extend(matrix[top][c] for c in range(left, right + 1))
        out.extend(matrix[r][right] for r in range(top + 1, bottom + 1))
        if top < bottom:
            out.extend(matrix[bottom][c] for c in range(right - 1, left - 1, -1))
        if left < right:
            out.extend(matrix[r][left] for r in range(bottom - 1, top, -1))
        top, bottom, left, right = top + 1, bottom - 1, left + 1, right - 1
    return out

# ---- test ----
def check(candidate):
    assert candidate([[1, 2, 3], [4, 5, 6], [7, 8, 9]]) == [1, 2, 3, 6, 9, 8, 7, 4, 5]
    assert candidate([]) == []
    assert candidate([[7]]) == [7]
    assert candidate([[1, 2, 3, 4]]) == [1, 2, 3, 4]
    assert candidate([[1], [2], [3]]) == [1, 2, 3]
    assert candidate([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]) == [1, 2, 3, 4, 8, 12, 11, 10, 9, 5, 6, 7]
    assert candidate([[1, 2], [3, 4], [5, 6]]) == [1, 2, 4, 6, 5, 3]
