# id: ib_lcb_23
# entry_point: weighted_average
# ---- prompt ----
from typing import List, Optional, Tuple


def weighted_average(pairs: List[Tuple[float, float]]) -> Optional[float]:
    """ pairs holds (value, weight) with weight >= 0. Return the weighted average of the values,
    rounded to 4 decimal places, or None when the total weight is 0 (including no pairs).

    >>> weighted_average([(1.0, 1.0), (3.0, 1.0)])
    2.0
    >>> weighted_average([(10.0, 0.0)]) is None
    True
    """

# ---- solution ----
from typing import List, Optional, Tuple


def weighted_average(pairs: List[Tuple[float, float]]) -> Optional[float]:
    total = sum(w for _, w in pairs)
    if total == 0:
        return None
    return round(sum(v * w for v, w in pairs) / total, 4)

# ---- test ----
def check(candidate):
    assert candidate([(1.0, 1.0), (3.0, 1.0)]) == 2.0
    assert candidate([(10.0, 0.0)]) is None
    assert candidate([]) is None
    assert candidate([(2.0, 3.0), (4.0, 1.0)]) == 2.5
    assert candidate([(1.0, 1.0), (2.0, 1.0), (2.0, 1.0)]) == 1.6667
    assert candidate([(-5.0, 2.0), (5.0, 2.0), (100.0, 0.0)]) == 0.0
    assert candidate([(0.1, 0.5), (0.2, 0.25)]) == 0.1333
