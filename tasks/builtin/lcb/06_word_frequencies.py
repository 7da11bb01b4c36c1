# id: ib_lcb_06
# entry_point: word_frequencies
# ---- prompt ----
from typing import Dict


def word_frequencies(text: str) -> Dict[str, int]:
    """ Count the words of text. A word is a maximal run of letters or apostrophes; words are
    compared in lower case, and apostrophes at the start or end of a word are dropped (a word
    that is only apostrophes is not counted). Return a dict from word to count.

    >>> word_frequencies("The cat and the hat.")
    {'the': 2, 'cat': 1, 'and': 1, 'hat': 1}
    >>> word_frequencies("It's 'quoted'")
    {"it's": 1, 'quoted': 1}
    """

# ---- solution ----
from typing import Dict


def word_frequencies(text: str) -> Dict[str, int]:
    counts: Dict[str, int] = {}
    word = []
    for ch in text + " ":
        if ch.isalpha() or ch == "'":
            word.append(ch)
            continue
        token = "".join(word).strip("'").lower()
        word = []
        if token:
            counts[token] = counts.get(token, 0) + 1
    return counts

# ---- test ----
def check(candidate):
    assert candidate("The cat and the hat.") == {"the": 2, "cat": 1, "and": 1, "hat": 1}
    assert candidate("It's 'quoted'") == {"it's": 1, "quoted": 1}
    assert candidate("") == {}
    assert candidate("123 456!") == {}
    assert candidate("a A a") == {"a": 3}
    assert candidate("don't stop, don't") == {"don't": 2, "stop": 1}
    assert candidate("'' x''y") == {"x''y": 1}
