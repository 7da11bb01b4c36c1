/**
 * Small test files, their test patches and a reference solution for each, one per kind of SWE
 * variant the assertion engine alone cannot make: written for the tests, not taken from a data set.
 */
export interface RowKindFixture {
  /** The test file at the base commit. */
  base: string;
  testPatch: string;
  failToPass: string[];
  /** The test function the variant must change. */
  test: string;
  /** Module files that make every original test pass. */
  solution: Record<string, string>;
  /** Module files before the fix: they fail every FAIL_TO_PASS test and must fail both variants too. */
  unfixed?: Record<string, string>;
}

/** A parametrize table whose first value is the exception class `pytest.raises` expects. */
export const RAISED_CLASS: RowKindFixture = {
  base: `import pytest

from urls import InvalidSchema, InvalidURL, parse


@pytest.mark.parametrize(
    "exception, url", (
        (InvalidSchema, "localhost:3128"),
        (InvalidSchema, "10.0.0.1:3128"),
        (InvalidURL, "http://"),
    ))
def test_invalid_url(exception, url):
    with pytest.raises(exception):
        parse(url)
`,
  testPatch: `diff --git a/test_urls.py b/test_urls.py
--- a/test_urls.py
+++ b/test_urls.py
@@ -8,6 +8,7 @@ from urls import InvalidSchema, InvalidURL, parse
         (InvalidSchema, "localhost:3128"),
         (InvalidSchema, "10.0.0.1:3128"),
         (InvalidURL, "http://"),
+        (InvalidURL, "http://.example.com"),
     ))
 def test_invalid_url(exception, url):
     with pytest.raises(exception):
`,
  failToPass: ['test_urls.py::test_invalid_url[InvalidURL-http://.example.com]'],
  test: 'test_invalid_url',
  solution: {
    'urls.py': `class InvalidSchema(ValueError):
    pass


class InvalidURL(ValueError):
    pass


def parse(url):
    if "://" not in url:
        raise InvalidSchema(url)
    host = url.split("://", 1)[1]
    if not host or host.startswith("."):
        raise InvalidURL(url)
    return host
`,
  },
  unfixed: {
    'urls.py': `class InvalidSchema(ValueError):
    pass


class InvalidURL(ValueError):
    pass


def parse(url):
    if "://" not in url:
        raise InvalidSchema(url)
    host = url.split("://", 1)[1]
    if not host:
        raise InvalidURL(url)
    return host
`,
  },
};

/** A test with a list of valid and one of invalid inputs; the patch adds an invalid one. */
export const INPUT_LISTS: RowKindFixture = {
  base: `import unittest

from users import check


class UsernameTests(unittest.TestCase):
    def test_ascii_validator(self):
        valid_usernames = ["glenn", "jean-marc"]
        invalid_usernames = ["o'connell", "jean marc"]
        for valid in valid_usernames:
            check(valid)
        for invalid in invalid_usernames:
            with self.assertRaises(ValueError):
                check(invalid)
`,
  testPatch: `diff --git a/test_users.py b/test_users.py
--- a/test_users.py
+++ b/test_users.py
@@ -6,7 +6,7 @@ from users import check
 class UsernameTests(unittest.TestCase):
     def test_ascii_validator(self):
         valid_usernames = ["glenn", "jean-marc"]
-        invalid_usernames = ["o'connell", "jean marc"]
+        invalid_usernames = ["o'connell", "jean marc", "trailing\\n"]
         for valid in valid_usernames:
             check(valid)
         for invalid in invalid_usernames:
`,
  failToPass: ['test_users.py::UsernameTests::test_ascii_validator'],
  test: 'test_ascii_validator',
  solution: {
    'users.py': `import re


def check(name):
    if not re.fullmatch(r"[\\w.@+-]+", name, flags=re.ASCII):
        raise ValueError(name)
`,
  },
  unfixed: {
    'users.py': `import re


def check(name):
    if not re.match(r"^[\\w.@+-]+$", name, flags=re.ASCII):
        raise ValueError(name)
`,
  },
};

/** A parametrize table whose cases pytest names by index (`value5-expected5`); the hunk starts below its start. */
export const POSITIONAL: RowKindFixture = {
  base: `from fractions import Fraction as F

import pytest

from halves import half


@pytest.mark.parametrize(
    "value, expected",
    [
        (F(1, 2), F(1, 4)),
        (F(2, 3), F(1, 3)),
        (F(1, 3), F(1, 6)),
        (F(1, 4), F(1, 8)),
        (F(3, 4), F(3, 8)),
    ],
)
def test_half(value, expected):
    assert half(value) == expected
`,
  testPatch: `diff --git a/test_half.py b/test_half.py
--- a/test_half.py
+++ b/test_half.py
@@ -13,6 +13,8 @@ from halves import half
         (F(1, 3), F(1, 6)),
         (F(1, 4), F(1, 8)),
         (F(3, 4), F(3, 8)),
+        (F(-4, 5), F(-2, 5)),
+        (F(-6, 7), F(-3, 7)),
     ],
 )
 def test_half(value, expected):
`,
  failToPass: ['test_half.py::test_half[value5-expected5]', 'test_half.py::test_half[value6-expected6]'],
  test: 'test_half',
  solution: {
    'halves.py': `def half(x):
    return x / 2
`,
  },
  unfixed: {
    'halves.py': `def half(x):
    return abs(x) / 2
`,
  },
};

/** An expected list whose end lies below the hunk; the patch adds one element. */
export const CUT_LIST: RowKindFixture = {
  base: `from render import render


def test_lines():
    actual = render(["a", "b"])
    assert list(actual) == [
        "<a>",
        "<b>",
        "",
        "end",
        "of",
        "list",
    ]
`,
  testPatch: `diff --git a/test_render.py b/test_render.py
--- a/test_render.py
+++ b/test_render.py
@@ -2,10 +2,11 @@ from render import render
 
 
 def test_lines():
-    actual = render(["a", "b"])
+    actual = render(["a", "b", "c"])
     assert list(actual) == [
         "<a>",
         "<b>",
+        "<c>",
         "",
         "end",
         "of",
`,
  failToPass: ['test_render.py::test_lines'],
  test: 'test_lines',
  solution: {
    'render.py': `def render(names):
    return [f"<{n}>" for n in names] + ["", "end", "of", "list"]
`,
  },
  unfixed: {
    'render.py': `def render(names):
    return [f"<{n}>" for n in names[:2]] + ["", "end", "of", "list"]
`,
  },
};

/** A `with` whose message check is continued over lines, its block ending where the hunk does. */
export const MESSAGE_ITEM: RowKindFixture = {
  base: `import unittest
from unittest import mock

import lib


class VersionTests(unittest.TestCase):
    def test_old_version(self):
        msg = "version 3.8 or later is required"
        with mock.patch.object(lib, "VERSION", (3, 7)), \\
                self.assertRaisesRegex(RuntimeError, msg):
            lib.check()

    def test_new_version(self):
        with mock.patch.object(lib, "VERSION", (3, 12)):
            lib.check()
`,
  testPatch: `diff --git a/test_version.py b/test_version.py
--- a/test_version.py
+++ b/test_version.py
@@ -6,8 +6,8 @@ import lib
 
 class VersionTests(unittest.TestCase):
     def test_old_version(self):
-        msg = "version 3.8 or later is required"
-        with mock.patch.object(lib, "VERSION", (3, 7)), \\
+        msg = "version 3.9 or later is required"
+        with mock.patch.object(lib, "VERSION", (3, 8)), \\
                 self.assertRaisesRegex(RuntimeError, msg):
             lib.check()
 
`,
  failToPass: ['test_version.py::VersionTests::test_old_version'],
  test: 'test_old_version',
  solution: {
    'lib.py': `VERSION = (3, 12)


def check():
    if VERSION < (3, 9):
        raise RuntimeError("version 3.9 or later is required (found %d.%d)" % VERSION)
`,
  },
  unfixed: {
    'lib.py': `VERSION = (3, 12)


def check():
    if VERSION < (3, 8):
        raise RuntimeError("version 3.8 or later is required (found %d.%d)" % VERSION)
`,
  },
};

/** A module-level test whose hunk git heads with a method of a class the test defines; the patch adds an assertion below it. */
export const NESTED_HELPER: RowKindFixture = {
  base: `from docs import inherit


def test_inherited():
    class Base:
        def run(self):
            "Run it."
            value = 1
            return value

    @inherit
    class Sub(Base):
        def run(self):
            return 2

    assert Sub.run.__doc__ == "Run it."


def test_plain():
    assert inherit(object) is object
`,
  testPatch: `diff --git a/test_docs.py b/test_docs.py
--- a/test_docs.py
+++ b/test_docs.py
@@ -8,12 +8,22 @@ def run(self):
             value = 1
             return value
 
+        @property
+        def size(self):
+            "The size."
+            return 0
+
     @inherit
     class Sub(Base):
         def run(self):
             return 2
 
+        @property
+        def size(self):
+            return 3
+
     assert Sub.run.__doc__ == "Run it."
+    assert Sub.size.__doc__ == "The size."
 
 
 def test_plain():
`,
  failToPass: ['test_docs.py::test_inherited'],
  test: 'test_inherited',
  solution: {
    'docs.py': `def inherit(cls):
    """Gives each method and property of cls without a docstring the one its base has."""
    for name, value in list(vars(cls).items()):
        if not (isinstance(value, property) or callable(value)) or value.__doc__:
            continue
        doc = next((d for d in (getattr(getattr(b, name, None), "__doc__", None) for b in cls.__mro__[1:]) if d), None)
        if doc is None:
            continue
        if isinstance(value, property):
            setattr(cls, name, property(value.fget, value.fset, value.fdel, doc))
        else:
            value.__doc__ = doc
    return cls
`,
  },
  unfixed: {
    'docs.py': `def inherit(cls):
    """Gives each method of cls without a docstring the one its base has."""
    for name, value in list(vars(cls).items()):
        if not callable(value) or value.__doc__:
            continue
        doc = next((d for d in (getattr(getattr(b, name, None), "__doc__", None) for b in cls.__mro__[1:]) if d), None)
        if doc is not None:
            value.__doc__ = doc
    return cls
`,
  },
};

/** Cases named by index in a table whose end lies below the hunk: the conflicting copy goes after the last row shown. */
export const POSITIONAL_CUT: RowKindFixture = {
  base: `from fractions import Fraction as F

import pytest

from halves import half


@pytest.mark.parametrize(
    "value, expected",
    [
        (F(1, 2), F(1, 4)),
        (F(2, 3), F(1, 3)),
        (F(1, 3), F(1, 6)),
        (F(1, 4), F(1, 8)),
        (F(3, 4), F(3, 8)),
        (F(5, 6), F(5, 12)),
        (F(7, 8), F(7, 16)),
        (F(9, 10), F(9, 20)),
        (F(1, 1), F(1, 2)),
    ],
)
def test_half(value, expected):
    assert half(value) == expected
`,
  testPatch: `diff --git a/test_half.py b/test_half.py
--- a/test_half.py
+++ b/test_half.py
@@ -13,6 +13,8 @@
         (F(1, 3), F(1, 6)),
         (F(1, 4), F(1, 8)),
         (F(3, 4), F(3, 8)),
+        (F(-4, 5), F(-2, 5)),
+        (F(-6, 7), F(-3, 7)),
         (F(5, 6), F(5, 12)),
         (F(7, 8), F(7, 16)),
         (F(9, 10), F(9, 20)),
`,
  failToPass: ['test_half.py::test_half[value5-expected5]', 'test_half.py::test_half[value6-expected6]'],
  test: 'test_half',
  solution: POSITIONAL.solution,
  unfixed: POSITIONAL.unfixed,
};

/** An expected text of string pieces whose comparison lies below the hunk, checked against the name assigned right above. */
export const CUT_TEXT: RowKindFixture = {
  base: `from report import render


def test_report():
    names = ["incr"]
    context = render(names)
    assert ('incr(a)\\n'
            '\\n'
            'summary\\n'
            'end\\n'
            'of\\n'
            'report\\n'
            in context)
`,
  testPatch: `diff --git a/test_report.py b/test_report.py
--- a/test_report.py
+++ b/test_report.py
@@ -2,9 +2,11 @@
 
 
 def test_report():
-    names = ["incr"]
+    names = ["incr", "decr"]
     context = render(names)
     assert ('incr(a)\\n'
+            '\\n'
+            'decr(a)\\n'
             '\\n'
             'summary\\n'
             'end\\n'
`,
  failToPass: ['test_report.py::test_report'],
  test: 'test_report',
  solution: {
    'report.py': `def render(names):
    return "".join(f"{n}(a)\\n\\n" for n in names) + "summary\\nend\\nof\\nreport\\n"
`,
  },
  unfixed: {
    'report.py': `def render(names):
    return "".join(f"{n}(a)\\n\\n" for n in names[:1]) + "summary\\nend\\nof\\nreport\\n"
`,
  },
};

/** A figure comparison (`@check_figures_equal`) the patch adds whole, its last statement calling nothing. */
export const FIGURE_REF: RowKindFixture = {
  base: `from matplotlib.testing.decorators import check_figures_equal

from marks import mark


@check_figures_equal(extensions=["png"])
def test_mark(fig_test, fig_ref):
    mark(fig_test.add_subplot(), 0.5)
    fig_ref.add_subplot().axvline(0.5)
`,
  testPatch: `diff --git a/test_marks.py b/test_marks.py
--- a/test_marks.py
+++ b/test_marks.py
@@ -7,3 +7,11 @@
 def test_mark(fig_test, fig_ref):
     mark(fig_test.add_subplot(), 0.5)
     fig_ref.add_subplot().axvline(0.5)
+
+
+@check_figures_equal(extensions=["png"])
+def test_mark_copies_input(fig_test, fig_ref):
+    where = [0.25]
+    mark(fig_test.add_subplot(), where)
+    fig_ref.add_subplot().axvline(0.25)
+    where[0] = 0.75
`,
  failToPass: ['test_marks.py::test_mark_copies_input[png]'],
  test: 'test_mark_copies_input',
  solution: {
    'marks.py': `def mark(ax, where):
    """Draws a vertical line at \`where\` (a number, or a one-item list read once)."""
    x = where[0] if isinstance(where, list) else where
    ax.axvline(x)
`,
  },
};
