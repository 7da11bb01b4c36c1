# id: ib_lcb_20
# entry_point: edit_distance
# ---- prompt ----
def edit_distance(a: str, b: str) -> int:
    """ The least number of single-character insertions, deletions and substitutions that turn
    a into b.

    >>> edit_distance("kitten", "sitting")
    3
    >>> edit_distance("", "abc")
    3
    """

# ---- solution ----
def edit_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]

# ---- test ----
def check(candidate):
    assert candidate("kitten", "sitting") == 3
    assert candidate("", "abc") == 3
    assert candidate("same", "same") == 0
    assert candidate("abc", "") == 3
    assert candidate("flaw", "lawn") == 2
    assert candidate("intention", "execution") == 5
    assert candidate("ab", "ba") == 2
