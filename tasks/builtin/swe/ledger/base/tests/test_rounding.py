from ledger import format_cents, to_cents


def test_whole_cents_unchanged():
    assert to_cents(1.25) == 125
    assert to_cents(10) == 1000
    assert format_cents(to_cents(3.5)) == "3.50"
