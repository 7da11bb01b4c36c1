from textkit import wrap


def test_wrap_short_text():
    assert wrap("one two", 20) == ["one two"]


def test_wrap_long_text():
    assert wrap("the quick brown fox jumps over the lazy dog", 10) == [
        "the quick",
        "brown fox",
        "jumps over",
        "the lazy",
        "dog",
    ]
