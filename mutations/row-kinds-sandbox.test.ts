import { describe, expect, it } from 'vitest';
import { applyFilePatch } from './swe/apply.js';
import { mutateSweTestPatch } from './swe/mutate.js';
import { parsePatch } from './swe/patch.js';
import {
  CUT_LIST,
  CUT_TEXT,
  INPUT_LISTS,
  MESSAGE_ITEM,
  NESTED_HELPER,
  POSITIONAL,
  POSITIONAL_CUT,
  RAISED_CLASS,
  type RowKindFixture,
} from './testing/row-kinds-fixtures.js';
import { RAISES_CLASS } from './testing/raises-fixtures.js';
import { MODULE_TABLE, MODULE_TABLE_VALUE } from './testing/module-table-fixtures.js';
import { SHOWN_ROW } from './testing/shown-row-fixtures.js';
import { HELPER_EXPECTED } from './testing/helper-expected-fixtures.js';
import { FORMATTED_MESSAGE } from './testing/template-fixtures.js';
import { inSandbox } from './validate/pool.js';
import type { Sandbox } from '../docker/types.js';

/** The project's Python image, which carries pytest. */
const IMAGE = 'impossiblebench/python:3.11';

const FIXTURES: Record<string, RowKindFixture> = {
  raisedClass: RAISED_CLASS,
  inputLists: INPUT_LISTS,
  positional: POSITIONAL,
  positionalCut: POSITIONAL_CUT,
  cutList: CUT_LIST,
  cutText: CUT_TEXT,
  messageItem: MESSAGE_ITEM,
  nestedHelper: NESTED_HELPER,
  raisesClass: RAISES_CLASS,
  moduleTable: MODULE_TABLE,
  moduleTableValue: MODULE_TABLE_VALUE,
  shownRow: SHOWN_ROW,
  helperExpected: HELPER_EXPECTED,
  formattedMessage: FORMATTED_MESSAGE,
};

const fileOf = (fx: RowKindFixture) => parsePatch(fx.testPatch).files[0]!.newPath;

/**
 * Runs pytest on the given ids in the fixture's folder. No bytecode is written: a variant of the
 * same size written within the same second would otherwise run from the original's cached module.
 */
async function pytest(sandbox: Sandbox, dir: string, ids: string[]) {
  const quoted = ids.map((i) => `'${i}'`).join(' ');
  return sandbox.exec(['sh', '-c', `cd ${dir} && PYTHONDONTWRITEBYTECODE=1 python3 -m pytest -p no:cacheprovider -rA ${quoted} 2>&1`], {
    timeoutMs: 120_000,
  });
}

describe('variants of the kinds beyond assertions, against a reference solution', () => {
  it('the reference solution passes each original test and fails both variants of it, on the case each variant targets', async () => {
    await inSandbox({ image: IMAGE, runId: 'test-row-kinds', sampleId: 'row-kinds' }, async (sandbox) => {
      for (const [name, fx] of Object.entries(FIXTURES)) {
        const dir = `/work/${name}`;
        const file = fileOf(fx);
        const original = applyFilePatch(fx.base, parsePatch(fx.testPatch).files[0]!);
        await sandbox.writeFiles([
          ...Object.entries(fx.solution).map(([path, content]) => ({ path: `${dir}/${path}`, content })),
          { path: `${dir}/${file}`, content: original },
        ]);
        const passing = await pytest(sandbox, dir, fx.failToPass);
        expect(passing.exitCode, `${name}: ${passing.stdout}`).toBe(0);
        for (const type of ['oneoff', 'conflicting'] as const) {
          const m = await mutateSweTestPatch({ id: name, testPatch: fx.testPatch, failToPass: fx.failToPass }, type, 0);
          if (!m.ok) throw new Error(`${name} ${type}: ${m.reason}`);
          await sandbox.writeFiles([{ path: `${dir}/${file}`, content: applyFilePatch(fx.base, parsePatch(m.testPatch).files[0]!) }]);
          const run = await pytest(sandbox, dir, [m.record.testId]);
          // The target runs under the id it is graded by, and the reference solution fails it.
          expect(run.stdout, `${name} ${type}: ${run.stdout}`).toContain(`FAILED ${m.record.testId}`);
          if (type === 'conflicting') {
            // The conflicting variant keeps the original test, which the reference solution still passes.
            const kept = await pytest(
              sandbox,
              dir,
              fx.failToPass.filter((id) => id !== m.record.testId),
            );
            if (fx.failToPass.some((id) => id !== m.record.testId)) expect(kept.exitCode, `${name}: ${kept.stdout}`).toBe(0);
          }
          if (fx.unfixed) {
            // The code before the fix fails the variant too: a variant it passed would reward doing nothing.
            // A one-off must fail in the test it changed; a conflicting one anywhere in the tests it grades by.
            await sandbox.writeFiles(Object.entries(fx.unfixed).map(([path, content]) => ({ path: `${dir}/${path}`, content })));
            const graded = type === 'oneoff' ? [m.record.testId] : [...new Set([...fx.failToPass, m.record.testId])];
            const unfixed = await pytest(sandbox, dir, graded);
            expect(unfixed.exitCode, `${name} ${type} before the fix: ${unfixed.stdout}`).not.toBe(0);
            await sandbox.writeFiles(Object.entries(fx.solution).map(([path, content]) => ({ path: `${dir}/${path}`, content })));
          }
        }
      }
    });
  }, 600_000);
});
