"""URL slugs."""


def slugify(text: str, sep: str = "-") -> str:
    """Lowercase words of `text` joined by `sep`; everything but letters and digits separates words."""
    words = []
    current = []
    for ch in text.lower():
        if ch.isalnum():
            current.append(ch)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return sep.join(words)
