"""Sales tax."""
from ledger.money import to_cents


def tax_cents(net_cents: int, rate_percent) -> int:
    """Tax on `net_cents` at `rate_percent`, in whole cents."""
    return to_cents(net_cents * rate_percent / 10000)
