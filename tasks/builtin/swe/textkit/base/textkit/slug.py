"""URL slugs."""


def slugify(text: str, sep: str = "-") -> str:
    """Lowercase words of `text` joined by `sep`; everything but letters and digits separates words."""
    out = []
    for ch in text.lower():
        if ch.isalnum():
            out.append(ch)
        else:
            out.append(sep)
    return "".join(out)
