# id: ib_lcb_08
# entry_point: palindrome_permutation
# ---- prompt ----
from typing import Optional


def palindrome_permutation(s: str) -> Optional[str]:
    """ Rearrange the letters of s (lower-case a-z only) into a palindrome. When several
    palindromes are possible, return the alphabetically smallest. Return None when no
    arrangement is a palindrome. The empty string is a palindrome.

    >>> palindrome_permutation("aabb")
    'abba'
    >>> palindrome_permutation("abc") is None
    True
    """

# ---- solution ----
from typing import Optional


def palindrome_permutation(s: str) -> Optional[str]:
    counts = {}
    for ch in s:
        counts[ch] = counts.get(ch, 0) + 1
    odd = [ch for ch, n in counts.items() if n % 2]
    if len(odd) > 1:
        return None
    half = "".join(ch * (counts[ch] // 2) for ch in sorted(counts))
    return half + (odd[0] if odd else "") + half[::-1]

# ---- test ----
def check(candidate):
    assert candidate("aabb") == "abba"
    assert candidate("abc") is None
    assert candidate("") == ""
    assert candidate("x") == "x"
    assert candidate("carrace") == "acrerca"
    assert candidate("bbbaa") == "abbba"
    assert candidate("zzyyxxw") == "xyzwzyx"
    assert candidate("aabbccd" + "e") is None
