from ledger import Invoice


def test_empty_invoice():
    assert Invoice().total() == 0


def test_total_without_discount():
    invoice = Invoice().add(2, 1.5).add(1, 0.25)
    assert invoice.total() == 325


def test_total_with_discount():
    invoice = Invoice(discount_percent=10).add(1, 10)
    assert invoice.total() == 900
    assert Invoice(discount_percent=10).add(1, 4.45).total() == 401


def test_line_totals_are_rounded():
    invoice = Invoice().add(5, 0.125).add(1, 1.005)
    assert invoice.line_totals() == [63, 101]
    assert invoice.total() == 164
