"""Fixed-width paragraphs."""


def wrap(text: str, width: int = 20) -> list:
    """Greedy word wrap: lines of at most `width` characters unless a single word is longer."""
    lines = []
    line = ""
    for word in text.split():
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines
