import pytest

from keyval import ParseError, parse


def test_simple_pairs():
    assert parse("a = 1\nb=two\n") == {"a": "1", "b": "two"}
    assert parse("  spaced   =   out  ") == {"spaced": "out"}


def test_blank_lines_and_comment_lines():
    assert parse("\n# heading\n  \nname = x\n") == {"name": "x"}


@pytest.mark.parametrize(
    "line,key,value",
    [
        ("plain=1", "plain", "1"),
        ("url=http://x/?a=b", "url", "http://x/?a=b"),
        ("expr = 1+1=2", "expr", "1+1=2"),
    ],
)
def test_value_may_contain_equals(line, key, value):
    assert parse(line) == {key: value}


def test_inline_comments_are_dropped():
    assert parse("port = 80  # default") == {"port": "80"}
    assert parse("color=#fff") == {"color": "#fff"}
    assert parse("a = 1 # one\nb = 2\t# two") == {"a": "1", "b": "2"}


def test_line_without_equals_is_an_error():
    with pytest.raises(ParseError):
        parse("just words")
