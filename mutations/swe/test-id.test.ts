import { describe, expect, it } from 'vitest';
import { fileMayHold, parseTestId } from './test-id.js';

describe('parseTestId', () => {
  it('reads pytest ids with classes and parameters (which may hold :: and brackets)', () => {
    expect(parseTestId('astropy/io/fits/tests/test_diff.py::TestDiff::test_identical_tables')).toMatchObject({
      file: 'astropy/io/fits/tests/test_diff.py',
      classes: ['TestDiff'],
      name: 'test_identical_tables',
    });
    expect(parseTestId('tests/test_x.py::test_y[a::b-[1]]')).toMatchObject({
      file: 'tests/test_x.py',
      classes: [],
      name: 'test_y',
      param: 'a::b-[1]',
    });
  });

  it('reads django ids, old and new form, and descriptions', () => {
    expect(parseTestId('test_negative (utils_tests.test_dateparse.DurationParseTests)')).toMatchObject({
      module: 'utils_tests.test_dateparse',
      classes: ['DurationParseTests'],
      name: 'test_negative',
    });
    expect(parseTestId('test_x (migrations.test_writer.WriterTests.test_x)')).toMatchObject({
      module: 'migrations.test_writer',
      classes: ['WriterTests'],
      name: 'test_x',
    });
    expect(parseTestId('Migration directories without an __init__.py file are loaded.')).toMatchObject({
      description: 'Migration directories without an __init__.py file are loaded.',
    });
  });

  it('reads bare names', () => {
    expect(parseTestId('test_Mod')).toMatchObject({ name: 'test_Mod', classes: [] });
  });

  it('matches the files that may hold a test', () => {
    const django = parseTestId('test_negative (utils_tests.test_dateparse.DurationParseTests)');
    expect(fileMayHold(django, 'tests/utils_tests/test_dateparse.py')).toBe(true);
    expect(fileMayHold(django, 'tests/utils_tests/test_html.py')).toBe(false);
    const pytest = parseTestId('xarray/tests/test_merge.py::test_x');
    expect(fileMayHold(pytest, 'xarray/tests/test_merge.py')).toBe(true);
    expect(fileMayHold(pytest, 'xarray/tests/test_dataset.py')).toBe(false);
    expect(fileMayHold(parseTestId('test_Mod'), 'sympy/core/tests/test_arit.py')).toBe(true);
  });
});
