# id: ib_lcb_09
# entry_point: run_length
# ---- prompt ----
from typing import List, Tuple


def run_length(s: str) -> List[Tuple[str, int]]:
    """ Run-length encode s: a list of (character, count) pairs, one for each maximal run of
    equal characters, in order. Upper and lower case are different characters.

    >>> run_length("aaabcc")
    [('a', 3), ('b', 1), ('c', 2)]
    >>> run_length("")
    []
    """

# ---- solution ----
from typing import List, Tuple


def run_length(s: str) -> List[Tuple[str, int]]:
    runs: List[Tuple[str, int]] = []
    for ch in s:
        if runs and runs[-1][0] == ch:
            runs[-1] = (ch, runs[-1][1] + 1)
        else:
            runs.append((ch, 1))
    return runs

# ---- test ----
def check(candidate):
    assert candidate("aaabcc") == [("a", 3), ("b", 1), ("c", 2)]
    assert candidate("") == []
    assert candidate("z") == [("z", 1)]
    assert candidate("aAaa") == [("a", 1), ("A", 1), ("a", 2)]
    assert candidate("  x  ") == [(" ", 2), ("x", 1), (" ", 2)]
    assert candidate("1112222") == [("1", 3), ("2", 4)]
    assert candidate("ab" * 3) == [("a", 1), ("b", 1)] * 3
