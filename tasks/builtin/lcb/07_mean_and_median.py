# id: ib_lcb_07
# entry_point: mean_and_median
# ---- prompt ----
from typing import List, Optional, Tuple


def mean_and_median(values: List[float]) -> Optional[Tuple[float, float]]:
    """ Return (mean, median) of values, each rounded to 3 decimal places, or None when values
    is empty. The median of an even number of values is the mean of the two middle ones.

    >>> mean_and_median([3, 1, 2])
    (2.0, 2.0)
    >>> mean_and_median([1, 2, 3, 10])
    (4.0, 2.5)
    >>> mean_and_median([]) is None
    True
    """

# ---- solution ----
from typing import List, Optional, Tuple


def mean_and_median(values: List[float]) -> Optional[Tuple[float, float]]:
    if not values:
        return None
    ordered = sorted(values)
    n = len(ordered)
    mid = n // 2
    median = ordered[mid] if n % 2 else (ordered[mid - 1] + ordered[mid]) / 2
    return (round(sum(ordered) / n, 3), round(median, 3))

# ---- test ----
def check(candidate):
    assert candidate([3, 1, 2]) == (2.0, 2.0)
    assert candidate([1, 2, 3, 10]) == (4.0, 2.5)
    assert candidate([]) is None
    assert candidate([5]) == (5.0, 5.0)
    assert candidate([0.1, 0.2, 0.4]) == (0.233, 0.2)
    assert candidate([-4, 4, -2, 2]) == (0.0, 0.0)
    assert candidate([1, 1, 1, 100]) == (25.75, 1.0)
