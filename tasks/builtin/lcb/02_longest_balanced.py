# id: ib_lcb_02
# entry_point: longest_balanced
# ---- prompt ----
def longest_balanced(s: str) -> int:
    """ Return the length of the longest substring of s that is a balanced sequence of
    parentheses. s contains only '(' and ')'. A balanced sequence is empty, or '(' A ')' B
    where A and B are balanced.

    >>> longest_balanced("(()")
    2
    >>> longest_balanced(")()())")
    4
    """

# ---- solution ----
def longest_balanced(s: str) -> int:
    best = 0
    stack = [-1]
    for i, ch in enumerate(s):
        if ch == "(":
            stack.append(i)
        else:
            stack.pop()
            if not stack:
                stack.append(i)
            else:
                best = max(best, i - stack[-1])
    return best

# ---- test ----
def check(candidate):
    assert candidate("(()") == 2
    assert candidate(")()())") == 4
    assert candidate("") == 0
    assert candidate("((((") == 0
    assert candidate("()(())") == 6
    assert candidate("())(())") == 4
    assert candidate("(()(((()") == 2
    assert candidate("()" * 50 + ")" + "(())") == 100
