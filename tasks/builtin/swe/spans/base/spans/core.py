"""Merging and measuring half-open spans (start, end)."""


def merge(spans):
    """The smallest sorted list of spans covering the same points as `spans`."""
    result = []
    for start, end in spans:
        if result and start < result[-1][1]:
            last_start, last_end = result[-1]
            result[-1] = (last_start, max(last_end, end))
        else:
            result.append((start, end))
    return result


def total_length(spans):
    """How many integer points the spans cover together."""
    return sum(end - start for start, end in merge(spans))
