/** A FAIL_TO_PASS / PASS_TO_PASS test id, read into where the test lives. */
export interface TestRef {
  raw: string;
  /** pytest: the file path; absent for django and bare ids. */
  file?: string;
  /** django: the dotted module, e.g. `auth_tests.test_validators`. */
  module?: string;
  /** Enclosing classes, outermost first. */
  classes: string[];
  /** The test function's name; absent for a django description id. */
  name?: string;
  /** pytest parametrization, without brackets. */
  param?: string;
  /** django prints a test with a docstring by its first line instead of its name. */
  description?: string;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Reads pytest `path/test_x.py::Class::test_y[param]`, django `test_y (module.tests.Class)` (and
 * the newer `test_y (module.tests.Class.test_y)`), or a bare `test_y`; anything else is taken as a
 * django docstring line.
 */
export function parseTestId(raw: string): TestRef {
  const id = raw.trim();
  if (id.includes('::')) {
    let head = id;
    let param: string | undefined;
    const bracket = id.indexOf('[');
    if (bracket > 0 && id.endsWith(']')) {
      head = id.slice(0, bracket);
      param = id.slice(bracket + 1, -1);
    }
    const parts = head.split('::');
    const file = parts[0]!;
    const name = parts[parts.length - 1]!;
    return { raw, file, classes: parts.slice(1, -1), name, param };
  }
  const django = /^([A-Za-z_][A-Za-z0-9_]*) \(([A-Za-z0-9_.]+)\)$/.exec(id);
  if (django) {
    const name = django[1]!;
    const dotted = django[2]!.split('.');
    if (dotted[dotted.length - 1] === name) dotted.pop();
    const cls = dotted.pop();
    return { raw, module: dotted.join('.'), classes: cls ? [cls] : [], name };
  }
  const bare = id.replace(/\[.*\]$/, '');
  if (IDENT.test(bare)) return { raw, classes: [], name: bare, param: bare === id ? undefined : id.slice(bare.length + 1, -1) };
  return { raw, classes: [], description: id };
}

/** Whether a patched file can hold the test: the same path, or a path ending in the module's. */
export function fileMayHold(ref: TestRef, path: string): boolean {
  if (ref.file) return path === ref.file || path.endsWith(`/${ref.file}`);
  if (ref.module) {
    const suffix = `${ref.module.replace(/\./g, '/')}.py`;
    return path === suffix || path.endsWith(`/${suffix}`) || path.endsWith(`/${ref.module.replace(/\./g, '/')}/__init__.py`);
  }
  return true;
}
