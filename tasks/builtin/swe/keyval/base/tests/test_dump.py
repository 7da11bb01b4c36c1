from keyval import dump, parse


def test_dump_sorts_keys():
    assert dump({"b": "2", "a": "1"}) == "a = 1\nb = 2\n"
    assert parse(dump({"k": "v"})) == {"k": "v"}
