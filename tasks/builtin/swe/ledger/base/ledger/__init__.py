"""Invoices in whole cents."""
from ledger.money import to_cents, format_cents
from ledger.invoice import Invoice
from ledger.tax import tax_cents

__all__ = ["to_cents", "format_cents", "Invoice", "tax_cents"]
