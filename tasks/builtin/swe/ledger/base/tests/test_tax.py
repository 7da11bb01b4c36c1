from ledger import tax_cents


def test_tax_on_round_amount():
    assert tax_cents(10000, 20) == 2000


def test_zero_rate():
    assert tax_cents(999, 0) == 0
