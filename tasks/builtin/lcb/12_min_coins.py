# id: ib_lcb_12
# entry_point: min_coins
# ---- prompt ----
from typing import List, Optional


def min_coins(coins: List[int], amount: int) -> Optional[int]:
    """ The fewest coins that add up to amount, with unlimited coins of each value in coins
    (positive integers). Return None when amount cannot be made. Making 0 takes 0 coins.

    >>> min_coins([1, 2, 5], 11)
    3
    >>> min_coins([2], 3) is None
    True
    """

# ---- solution ----
from typing import List, Optional


def min_coins(coins: List[int], amount: int) -> Optional[int]:
    best = [0] + [None] * amount
    for total in range(1, amount + 1):
        options = [best[total - c] for c in coins if c <= total and best[total - c] is not None]
        best[total] = min(options) + 1 if options else None
    return best[amount]

# ---- test ----
def check(candidate):
    assert candidate([1, 2, 5], 11) == 3
    assert candidate([2], 3) is None
    assert candidate([7], 0) == 0
    assert candidate([1, 3, 4], 6) == 2
    assert candidate([5, 10], 35) == 4
    assert candidate([3, 7], 11) is None
    assert candidate([186, 419, 83, 408], 6249) == 20
