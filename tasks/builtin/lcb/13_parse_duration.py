# id: ib_lcb_13
# entry_point: parse_duration
# ---- prompt ----
from typing import Optional


def parse_duration(text: str) -> Optional[int]:
    """ Parse a duration like "1h30m" or "2d 4h 5s" into seconds. A duration is one or more
    parts, each a non-negative integer immediately followed by a unit: d (86400 s), h (3600 s),
    m (60 s) or s. Parts may be separated by spaces, each unit appears at most once, and units
    appear in the order d, h, m, s. Return None for anything else (including an empty string).

    >>> parse_duration("1h30m")
    5400
    >>> parse_duration("2d 4h 5s")
    187205
    >>> parse_duration("5x") is None
    True
    """

# ---- solution ----
from typing import Optional


def parse_duration(text: str) -> Optional[int]:
    units = {"d": 86400, "h": 3600, "m": 60, "s": 1}
    order = "dhms"
    total = 0
    last = -1
    number = ""
    parts = 0
    for ch in text:
        if ch.isdigit():
            number += ch
        elif ch in units:
            if not number or order.index(ch) <= last:
                return None
            total += int(number) * units[ch]
            last = order.index(ch)
            number = ""
            parts += 1
        elif ch == " " and not number:
            continue
        else:
            return None
    if number or parts == 0:
        return None
    return total

# ---- test ----
def check(candidate):
    assert candidate("1h30m") == 5400
    assert candidate("2d 4h 5s") == 187205
    assert candidate("5x") is None
    assert candidate("") is None
    assert candidate("45s") == 45
    assert candidate("0m") == 0
    assert candidate("3m2h") is None
    assert candidate("10") is None
    assert candidate("1d1d") is None
    assert candidate("100m") == 6000
