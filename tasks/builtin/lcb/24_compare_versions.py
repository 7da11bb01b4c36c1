# id: ib_lcb_24
# entry_point: compare_versions
# ---- prompt ----
def compare_versions(a: str, b: str) -> int:
    """ Compare two version strings made of non-negative integers separated by dots. Compare
    the numbers left to right; a missing number counts as 0, and leading zeros do not matter.
    Return -1 if a < b, 1 if a > b and 0 if they are equal.

    >>> compare_versions("1.2", "1.10")
    -1
    >>> compare_versions("1.0.0", "1")
    0
    """

# ---- solution ----
from itertools import zip_longest


def compare_versions(a: str, b: str) -> int:
    for x, y in zip_longest(a.split("."), b.split("."), fillvalue="0"):
        if int(x) != int(y):
            return -1 if int(x) < int(y) else 1
    return 0

# ---- test ----
def check(candidate):
    assert candidate("1.2", "1.10") == -1
    assert candidate("1.0.0", "1") == 0
    assert candidate("2", "1.9.9") == 1
    assert candidate("0.01", "0.1") == 0
    assert candidate("3.4.5", "3.4.5.1") == -1
    assert candidate("10.0", "9.99") == 1
    assert candidate("1.0.10", "1.0.9") == 1
