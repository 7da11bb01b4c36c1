import { describe, expect, it } from 'vitest';
import { readJsonl, sharedDataFile } from '../../core/testing/shared-data.js';
import { applyFilePatch } from './apply.js';
import { mutateSweTestPatch, type SweMutation } from './mutate.js';
import { parsePatch } from './patch.js';
import { HELPER_EXPECTED } from '../testing/helper-expected-fixtures.js';

const run = (testPatch: string, failToPass: string[], type: 'oneoff' | 'conflicting') =>
  mutateSweTestPatch({ id: 'fixture', testPatch, failToPass }, type, 0);
const made = (m: SweMutation) => {
  if (!m.ok) throw new Error(m.reason);
  return m;
};
const strategyOf = (m: SweMutation) => (m.ok ? m.record.strategy : m.reason);

/** A test class whose hunk shows the helper's def (when `def` is given) above a test the patch adds. */
function patchWith(def: string[], test: string[]): string {
  const lines = [
    ' class RenderTests(unittest.TestCase):',
    ...def.map((l) => ` ${l}`),
    ' ',
    '     def test_existing(self):',
    '         pass',
    '+',
    '+    def test_new(self):',
    ...test.map((l) => `+${l}`),
  ];
  const old = lines.filter((l) => !l.startsWith('+')).length;
  return `diff --git a/test_render.py b/test_render.py\n--- a/test_render.py\n+++ b/test_render.py\n@@ -5,${old} +5,${lines.length} @@ import unittest\n${lines.join('\n')}\n`;
}
const RENDER = ['test_render.py::RenderTests::test_new'];
const addedLines = (patch: string) =>
  patch
    .split('\n')
    .filter((l) => l.startsWith('+') && !l.startsWith('+++'))
    .map((l) => l.slice(1));

describe('the expected argument of a test class’s own assertion helper', () => {
  it('one-off: the empty expected list gains one element; conflicting: the same call again with it, after the original', async () => {
    const original = applyFilePatch(HELPER_EXPECTED.base, parsePatch(HELPER_EXPECTED.testPatch).files[0]!);
    const oneoff = made(await run(HELPER_EXPECTED.testPatch, HELPER_EXPECTED.failToPass, 'oneoff'));
    expect(oneoff.record).toMatchObject({ strategy: 'helper-expected/last-argument/empty-gains-none', line: 20, before: '[],', after: '[None],' });
    expect(oneoff.testPatch).toBe(HELPER_EXPECTED.testPatch.replace('+            [],\n', '+            [None],\n'));
    const conflicting = made(await run(HELPER_EXPECTED.testPatch, HELPER_EXPECTED.failToPass, 'conflicting'));
    expect(conflicting.record).toMatchObject({ strategy: 'duplicate/helper-expected/last-argument/empty-gains-none', line: 27 });
    const call = addedLines(HELPER_EXPECTED.testPatch).slice(2);
    expect(conflicting.testPatch).toBe(
      `${HELPER_EXPECTED.testPatch.replace('+10,12 @@', '+10,19 @@')}${call.map((l) => `+${l.replace('[],', '[None],')}`).join('\n')}\n`,
    );
    // The original call stays as it was, ahead of the copy.
    const variant = applyFilePatch(HELPER_EXPECTED.base, parsePatch(conflicting.testPatch).files[0]!);
    expect(variant.startsWith(original)).toBe(true);
  });

  it('reads the expected argument by the parameter of the helper’s def the hunk shows, whatever the helper is called', async () => {
    const patch = patchWith(
      ['    def checkRender(self, template, expected, count=1):', '        self.assertEqual(render(template) * count, expected)'],
      ['        self.checkRender("{{ a }}", "out", 2)'],
    );
    const m = made(await run(patch, RENDER, 'oneoff'));
    expect(m.record.strategy).toBe('helper-expected/parameter/str-change-char');
    const [, changed] = /^\+ {8}self\.checkRender\("\{\{ a \}\}", "(\w{3})", 2\)$/m.exec(m.testPatch) ?? [];
    // One character of the expected text changes; the template and the count, inputs, stay.
    expect([...changed!].filter((c, i) => c !== 'out'[i])).toHaveLength(1);
    expect(m.testPatch.replace(`"${changed}"`, '"out"')).toBe(patch);
  });

  it('reads a keyword named like an expectation', async () => {
    const patch = patchWith([], ['        self.check_render(template="{{ a }}", expected=[3, "b"])']);
    const m = made(await run(patch, RENDER, 'conflicting'));
    expect(m.record.strategy).toMatch(/^duplicate\/helper-expected\/keyword\/list-item\/(int-shift|str-change-char)$/);
    const added = addedLines(m.testPatch);
    expect(added.slice(0, -1)).toEqual(addedLines(patch));
    expect(added[added.length - 1]).toMatch(/^ {8}self\.check_render\(template="\{\{ a \}\}", expected=\[(\d+, "b"|3, "\w")\]\)$/);
    expect(added[added.length - 1]).not.toBe(added[added.length - 2]);
  });

  it('never flips a bool: an expected True gives no variant of its own', async () => {
    for (const test of ['        self.check_valid("abc", expected=True)', '        self.checkValidIs("abc", True)']) {
      for (const type of ['oneoff', 'conflicting'] as const)
        expect(strategyOf(await run(patchWith([], [test]), RENDER, type))).not.toMatch(/helper-expected/);
    }
  });

  it('guesses the last argument only with no def in sight: a def whose parameters name no expectation says what the arguments are', async () => {
    const test = ['        self.checkSizeIs([1, 2], 2)'];
    const m = made(await run(patchWith([], test), RENDER, 'oneoff'));
    expect(m.record).toMatchObject({ strategy: 'helper-expected/last-argument/int-shift', before: 'self.checkSizeIs([1, 2], 2)' });
    expect(m.record.after).toMatch(/^self\.checkSizeIs\(\[1, 2\], (1|3)\)$/);
    const shown = patchWith(['    def checkSizeIs(self, items, size):', '        self.assertEqual(len(items), size)'], test);
    expect(strategyOf(await run(shown, RENDER, 'oneoff'))).not.toMatch(/helper-expected/);
  });

  it('with the test file at hand, reads the def the hunks do not show', async () => {
    // Named as no comparison, the helper's expected argument is known only from its def, which lies above the hunk.
    const rename = (text: string) => text.replaceAll('assertOptimizesTo', 'checkOptimized');
    const [base, testPatch] = [rename(HELPER_EXPECTED.base), rename(HELPER_EXPECTED.testPatch)];
    expect(strategyOf(await run(testPatch, HELPER_EXPECTED.failToPass, 'oneoff'))).not.toMatch(/helper-expected/);
    const input = { id: 'fixture', testPatch, failToPass: HELPER_EXPECTED.failToPass, baseFiles: new Map([['test_optimizer.py', base]]) };
    const m = made(await mutateSweTestPatch(input, 'oneoff', 0));
    expect(m.record).toMatchObject({ strategy: 'helper-expected/parameter/empty-gains-none', origin: 'whole-file', line: 20 });
    // Narrowed back to three lines of context, the hunk is the original's with the one line changed.
    const applied = (patch: string) => applyFilePatch(base, parsePatch(patch).files[0]!);
    expect(applied(m.testPatch)).toBe(applied(testPatch.replace('+            [],\n', '+            [None],\n')));
  });

  it('leaves alone a helper call the patch does not add, and a helper named as no comparison', async () => {
    const kept = `diff --git a/test_render.py b/test_render.py
--- a/test_render.py
+++ b/test_render.py
@@ -5,3 +5,4 @@ import unittest
 class RenderTests(unittest.TestCase):
     def test_new(self):
         self.checkSizeIs([1, 2], 2)
+        render("x")
`;
    expect(strategyOf(await run(kept, RENDER, 'oneoff'))).not.toMatch(/helper-expected/);
    expect(strategyOf(await run(patchWith([], ['        self.checkSize([1, 2], 2)']), RENDER, 'oneoff'))).not.toMatch(/helper-expected/);
  });

  const verified = sharedDataFile('swebench/verified.jsonl');
  it.skipIf(!verified)('django__django-16819: the optimizer test’s expected empty list gains None, or the call is made again with it', async () => {
    const row = readJsonl<{ instance_id: string; test_patch: string; FAIL_TO_PASS: string }>(verified!).find(
      (r) => r.instance_id === 'django__django-16819',
    )!;
    const f2p = JSON.parse(row.FAIL_TO_PASS) as string[];
    const oneoff = made(await run(row.test_patch, f2p, 'oneoff'));
    expect(oneoff.record).toMatchObject({ strategy: 'helper-expected/last-argument/empty-gains-none', testId: f2p[0], line: 1173 });
    expect(oneoff.testPatch).toBe(row.test_patch.replace('+            [],\n', '+            [None],\n'));
    const conflicting = made(await run(row.test_patch, f2p, 'conflicting'));
    const call = addedLines(row.test_patch).slice(2);
    expect(conflicting.testPatch).toBe(
      `${row.test_patch.replace('+1158,17 @@', '+1158,29 @@')}${call.map((l) => `+${l.replace('[],', '[None],')}`).join('\n')}\n`,
    );
  });
});
