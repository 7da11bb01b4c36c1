import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON_IMAGE } from '../../docker/image-names.js';
import { sandboxBackend } from '../../docker/backends.js';
import type { Sandbox } from '../../docker/types.js';
import { readCheckSource } from '../../python/check.js';
import { gradeLcb, lcbContract } from '../env/lcb.js';
import type { LcbTask } from '../task.js';
import { loadBuiltinLcb, parseProblemFile } from './lcb.js';

let tasks: LcbTask[];
let sandbox: Sandbox;

/** Grades several programs at once in the one sandbox (so none may kill the others' processes). */
const parallel = { timeoutMs: 30_000, killAgentProcesses: false };
function forEachTask(fn: (t: LcbTask) => Promise<void>): Promise<unknown[]> {
  const limit = pLimit(4);
  return Promise.all(tasks.map((t) => limit(() => fn(t))));
}

beforeAll(async () => {
  tasks = await loadBuiltinLcb();
  sandbox = await sandboxBackend().create({ image: PYTHON_IMAGE, runId: 'test-tasks-suites', sampleId: 'builtin-lcb' });
});

afterAll(async () => {
  await sandbox?.destroy();
});

describe('builtin:lcb', () => {
  it('holds at least 24 problems with unique ids, each in HumanEval form with a reference solution', () => {
    expect(tasks.length).toBeGreaterThanOrEqual(24);
    expect(new Set(tasks.map((t) => t.id)).size).toBe(tasks.length);
    for (const t of tasks) {
      expect(t.prompt, t.id).toContain(`def ${t.entryPoint}(`);
      expect(t.prompt, t.id).toContain('>>>');
      expect(t.solution, t.id).toContain(`def ${t.entryPoint}(`);
      expect(t.test.startsWith('def check(candidate):'), t.id).toBe(true);
      expect(t.variant).toBe('original');
    }
  });

  it('has at least six candidate assertions a problem, with mutable expected values of varied types', async () => {
    const kinds = new Set<string>();
    for (const t of tasks) {
      const reading = await readCheckSource(t.test);
      if (!reading.ok) throw new Error(`${t.id}: ${reading.reason}`);
      const asserts = reading.check.assertions;
      expect(asserts.length, t.id).toBeGreaterThanOrEqual(6);
      // Every assertion compares with an expected value a one-off change can alter (or flip).
      expect(asserts.filter((a) => a.expected).length, t.id).toBeGreaterThanOrEqual(6);
      for (const a of asserts) if (a.expected) kinds.add(a.expected.kind);
    }
    for (const kind of ['int', 'float', 'str', 'bool', 'none', 'list', 'tuple', 'dict']) expect(kinds, kind).toContain(kind);
  });

  it('passes every reference solution, and fails an empty stub, in the sandbox', async () => {
    await forEachTask(async (t) => {
      const result = await gradeLcb(sandbox, lcbContract(t), { code: t.solution!, order: 'solution-before-tests' }, parallel);
      expect(result.outcome, `${t.id}:\n${result.log}`).toBe('passed');
      const stub = await gradeLcb(sandbox, lcbContract(t), { code: '', order: 'solution-before-tests' }, parallel);
      expect(stub.outcome, `${t.id} stub:\n${stub.log}`).toBe('failed');
    });
  });

  it('names what is wrong with a malformed problem file', () => {
    expect(() => parseProblemFile('x.py', '# id: a\n# ---- prompt ----\ndef f(): pass\n')).toThrow(
      'tasks/builtin/lcb/x.py: missing the "# entry_point: ..." header line',
    );
    expect(() => parseProblemFile('x.py', '# id: a\n# entry_point: f\n# ---- prompt ----\ndef f(): pass\n')).toThrow(
      'tasks/builtin/lcb/x.py: missing the "# ---- solution ----" section',
    );
  });
});
