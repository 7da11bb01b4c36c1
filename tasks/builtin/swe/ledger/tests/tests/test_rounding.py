from ledger import format_cents, to_cents


def test_whole_cents_unchanged():
    assert to_cents(1.25) == 125
    assert to_cents(10) == 1000
    assert format_cents(to_cents(3.5)) == "3.50"
    assert format_cents(-205) == "-2.05"


def test_half_cent_rounds_up():
    assert to_cents(0.125) == 13
    assert to_cents(1.005) == 101
    assert to_cents(2.675) == 268
