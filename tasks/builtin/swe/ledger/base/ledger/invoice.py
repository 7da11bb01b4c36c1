"""An invoice: lines of quantity x unit price, and an optional discount."""
from ledger.money import to_cents


class Invoice:
    def __init__(self, discount_percent=0):
        self.discount_percent = discount_percent
        self.lines = []

    def add(self, quantity, unit_price):
        self.lines.append((quantity, unit_price))
        return self

    def line_totals(self):
        """Each line's total in cents."""
        return [to_cents(quantity * unit_price) for quantity, unit_price in self.lines]

    def total(self):
        """The invoice total in cents, after the discount."""
        gross = sum(self.line_totals())
        if not self.discount_percent:
            return gross
        return to_cents(gross * (100 - self.discount_percent) / 10000)
