import type { RowKindFixture } from './row-kinds-fixtures.js';

const base = (ports: string) => `import unittest

from validators import ValidationError, validate_port, validate_slug

TEST_DATA = [
    # Slugs
    (validate_slug, "hello", None),
    (validate_slug, "hello-world", None),
    (validate_slug, "", ValidationError),
    (validate_slug, "has space", ValidationError),
    # Ports
${ports}    (validate_port, 70000, ValidationError),
]


class ValidatorTests(unittest.TestCase):
    def test_validators(self):
        for validator, value, expected in TEST_DATA:
            if expected is not None and issubclass(expected, Exception):
                with self.assertRaises(expected):
                    validator(value)
            else:
                self.assertEqual(expected, validator(value))
`;

const patch = (ports: string) => `diff --git a/test_validators.py b/test_validators.py
--- a/test_validators.py
+++ b/test_validators.py
@@ -8,6 +8,8 @@
     (validate_slug, "hello-world", None),
     (validate_slug, "", ValidationError),
     (validate_slug, "has space", ValidationError),
+    (validate_slug, "hello\\n", ValidationError),
+    (validate_slug, "hello-world\\n", ValidationError),
     # Ports
${ports}`;

const validators = (slug: string) => `import re


class ValidationError(ValueError):
    pass


def validate_slug(value):
    if not ${slug}:
        raise ValidationError(f"{value!r} is not a slug")


def validate_port(value):
    if not 0 < value < 65536:
        raise ValidationError(f"{value!r} is not a port")
`;

const PORTS = ['    (validate_port, 80, None),\n', '    (validate_port, 0, ValidationError),\n'];

/**
 * A module-level table of (validator, value, expected) that a test far below the hunk loops over.
 * The patch adds inputs with a trailing newline, which the unfixed validator accepts (`$` matches
 * before a final newline) and the fixed one rejects.
 */
export const MODULE_TABLE: RowKindFixture = {
  base: base(PORTS.join('')),
  testPatch: patch(PORTS.map((l) => ` ${l}`).join('')),
  failToPass: ['test_validators.py::ValidatorTests::test_validators'],
  test: 'test_validators',
  solution: { 'validators.py': validators('re.fullmatch(r"[-a-z]+", value)') },
  unfixed: { 'validators.py': validators('re.match(r"^[-a-z]+$", value)') },
};

/** The same table with the port rows the other way round: the row changed expects None, and gets the error class another row expects. */
export const MODULE_TABLE_VALUE: RowKindFixture = {
  ...MODULE_TABLE,
  base: base([...PORTS].reverse().join('')),
  testPatch: patch(
    [...PORTS]
      .reverse()
      .map((l) => ` ${l}`)
      .join(''),
  ),
};
