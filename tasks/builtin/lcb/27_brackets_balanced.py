# id: ib_lcb_27
# entry_point: brackets_balanced
# ---- prompt ----
def brackets_balanced(s: str) -> bool:
    """ Return True when every bracket in s ('()', '[]', '{}') is closed by the matching
    bracket in the right order, and False otherwise. Characters other than brackets are
    ignored.

    >>> brackets_balanced("a(b[c]{d})")
    True
    >>> brackets_balanced("(]")
    False
    """

# ---- solution ----
def brackets_balanced(s: str) -> bool:
    pairs = {")": "(", "]": "[", "}": "{"}
    stack = []
    for ch in s:
        if ch in "([{":
            stack.append(ch)
        elif ch in pairs:
            if not stack or stack.pop() != pairs[ch]:
                return False
    return not stack

# ---- test ----
def check(candidate):
    assert candidate("a(b[c]{d})") == True
    assert candidate("(]") == False
    assert candidate("") == True
    assert candidate("no brackets") == True
    assert candidate("((") == False
    assert candidate("([)]") == False
    assert candidate("{[()()]}[]") == True
    assert candidate("}{") == False
