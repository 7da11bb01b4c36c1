from textkit import slugify


def test_lowercases():
    assert slugify("Hello") == "hello"
    assert slugify("ABC") == "abc"


def test_drops_punctuation():
    assert slugify("rock&roll") == "rock-roll"
