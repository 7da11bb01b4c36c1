"""`key = value` lines; `#` comment lines and blank lines are ignored."""


class ParseError(ValueError):
    """A line that is not `key = value`."""


def parse(text: str) -> dict:
    result = {}
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if "=" not in stripped:
            raise ParseError(f"line {number}: expected key = value")
        key, value = stripped.split("=")
        result[key.strip()] = value.strip()
    return result


def dump(values: dict) -> str:
    return "".join(f"{key} = {values[key]}\n" for key in sorted(values))
