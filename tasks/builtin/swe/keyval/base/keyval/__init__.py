"""Read and write `key = value` files."""
from keyval.parser import ParseError, dump, parse

__all__ = ["ParseError", "dump", "parse"]
