"""Whole cents from amounts in currency units."""
from decimal import ROUND_HALF_UP, Decimal


def to_cents(amount) -> int:
    """`amount` (units, e.g. 2.5) in whole cents, half a cent rounded up."""
    cents = Decimal(str(amount)) * 100
    return int(cents.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def format_cents(cents: int) -> str:
    """12345 -> '123.45'."""
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"
