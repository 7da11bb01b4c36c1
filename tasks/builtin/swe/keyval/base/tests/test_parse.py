import pytest

from keyval import ParseError, parse


def test_simple_pairs():
    assert parse("a = 1\nb=two\n") == {"a": "1", "b": "two"}


def test_blank_lines_and_comment_lines():
    assert parse("\n# heading\n  \nname = x\n") == {"name": "x"}


def test_line_without_equals_is_an_error():
    with pytest.raises(ParseError):
        parse("just words")
