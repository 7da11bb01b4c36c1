# id: ib_lcb_04
# entry_point: roman_to_int
# ---- prompt ----
def roman_to_int(numeral: str) -> int:
    """ Convert a Roman numeral (I, V, X, L, C, D, M, with the subtractive forms IV, IX, XL,
    XC, CD and CM) to an integer between 1 and 3999. The input is always a valid numeral in
    upper case.

    >>> roman_to_int("XIV")
    14
    >>> roman_to_int("MCMXCIV")
    1994
    """

# ---- solution ----
def roman_to_int(numeral: str) -> int:
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for i, ch in enumerate(numeral):
        value = values[ch]
        if i + 1 < len(numeral) and values[numeral[i + 1]] > value:
            total -= value
        else:
            total += value
    return total

# ---- test ----
def check(candidate):
    assert candidate("XIV") == 14
    assert candidate("MCMXCIV") == 1994
    assert candidate("I") == 1
    assert candidate("MMMCMXCIX") == 3999
    assert candidate("XLII") == 42
    assert candidate("CDXLIV") == 444
    assert candidate("LVIII") == 58
