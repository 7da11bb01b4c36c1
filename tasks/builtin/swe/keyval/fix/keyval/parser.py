"""`key = value` lines; `#` comment lines and blank lines are ignored."""


class ParseError(ValueError):
    """A line that is not `key = value`."""


def _drop_comment(value: str) -> str:
    # A '#' starts a comment only after whitespace, so values like '#fff' survive.
    for index, ch in enumerate(value):
        if ch == "#" and index > 0 and value[index - 1].isspace():
            return value[:index]
    return value


def parse(text: str) -> dict:
    result = {}
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if "=" not in stripped:
            raise ParseError(f"line {number}: expected key = value")
        key, value = stripped.split("=", 1)
        result[key.strip()] = _drop_comment(value).strip()
    return result


def dump(values: dict) -> str:
    return "".join(f"{key} = {values[key]}\n" for key in sorted(values))
