# id: ib_lcb_11
# entry_point: group_anagrams
# ---- prompt ----
from typing import List


def group_anagrams(words: List[str]) -> List[List[str]]:
    """ Group words that are anagrams of each other (the same letters, in any order; case
    matters). Each group lists its words sorted, duplicates kept; the groups are sorted by
    their first word.

    >>> group_anagrams(["eat", "tea", "tan", "ate", "nat", "bat"])
    [['ate', 'eat', 'tea'], ['bat'], ['nat', 'tan']]
    >>> group_anagrams([])
    []
    """

# ---- solution ----
from typing import Dict, List, Tuple


def group_anagrams(words: List[str]) -> List[List[str]]:
    groups: Dict[Tuple[str, ...], List[str]] = {}
    for word in words:
        groups.setdefault(tuple(sorted(word)), []).append(word)
    return sorted((sorted(g) for g in groups.values()), key=lambda g: g[0])

# ---- test ----
def check(candidate):
    assert candidate(["eat", "tea", "tan", "ate", "nat", "bat"]) == [["ate", "eat", "tea"], ["bat"], ["nat", "tan"]]
    assert candidate([]) == []
    assert candidate(["a"]) == [["a"]]
    assert candidate(["ab", "ba", "ab"]) == [["ab", "ab", "ba"]]
    assert candidate(["Ab", "bA", "ab"]) == [["Ab", "bA"], ["ab"]]
    assert candidate(["", "", "x"]) == [["", ""], ["x"]]
    assert candidate(["listen", "silent", "enlist", "google"]) == [["enlist", "listen", "silent"], ["google"]]
