"""Half-open integer spans."""
from spans.core import merge, total_length

__all__ = ["merge", "total_length"]
