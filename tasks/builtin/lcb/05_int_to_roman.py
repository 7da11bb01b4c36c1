# id: ib_lcb_05
# entry_point: int_to_roman
# ---- prompt ----
def int_to_roman(n: int) -> str:
    """ Write n (1 <= n <= 3999) as a Roman numeral in upper case, using the subtractive
    forms IV, IX, XL, XC, CD and CM and never four of the same symbol in a row.

    >>> int_to_roman(9)
    'IX'
    >>> int_to_roman(2024)
    'MMXXIV'
    """

# ---- solution ----
def int_to_roman(n: int) -> str:
    table = [
        (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
        (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
    ]
    out = []
    for value, symbol in table:
        while n >= value:
            out.append(symbol)
            n -= value
    return "".join(out)

# ---- test ----
def check(candidate):
    assert candidate(9) == "IX"
    assert candidate(2024) == "MMXXIV"
    assert candidate(1) == "I"
    assert candidate(3999) == "MMMCMXCIX"
    assert candidate(444) == "CDXLIV"
    assert candidate(40) == "XL"
    assert candidate(1666) == "MDCLXVI"
