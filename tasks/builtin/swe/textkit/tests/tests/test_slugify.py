from textkit import slugify


def test_lowercases():
    assert slugify("Hello") == "hello"
    assert slugify("ABC") == "abc"
    assert slugify("MiXeD 42") == "mixed-42"


def test_drops_punctuation():
    assert slugify("rock&roll") == "rock-roll"


def test_collapses_runs_of_separators():
    assert slugify("Hello,  World!") == "hello-world"
    assert slugify("a -- b") == "a-b"
    assert slugify("one...two...three") == "one-two-three"


def test_strips_separators_at_the_edges():
    assert slugify("  padded  ") == "padded"
    assert slugify("!!!wow!!!") == "wow"
    assert slugify("") == ""


def test_custom_separator():
    assert slugify("  a  b  ", sep="_") == "a_b"
    assert slugify("Big Data, Small Files", sep=".") == "big.data.small.files"
