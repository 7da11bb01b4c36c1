"""Small text helpers."""
from textkit.slug import slugify
from textkit.wrap import wrap

__all__ = ["slugify", "wrap"]
