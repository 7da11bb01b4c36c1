import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../core/model.js';
import { createModelClient } from '../../models/factory.js';
import type { Policy } from '../../simulated/policy.js';
import { useModelServer } from '../../simulated/testing/model-server.js';
import { loadBuiltinSwe } from '../../tasks/index.js';
import type { SweTask } from '../../tasks/task.js';
import { validateSweVariants } from '../../mutations/validate/swe.js';
import { modelPromptFile } from '../../mutations/swe/model-prompt.js';
import { mutateWithModel, parseModelAnswer } from '../../mutations/swe/model-fallback.js';
import { mutateSweTestPatch } from '../../mutations/swe/mutate.js';

/** A test the engine cannot see: pytest collects it by its name, but no `def` in the patch carries that name. */
const TABLE_FILE = [
  'from keyval import parse',
  '',
  '',
  'def make_case(text, expected):',
  '    def case():',
  '        assert parse(text) == expected',
  '',
  '    return case',
  '',
  '',
  'test_inline_comment_table = make_case("port = 80  # default", {"port": "80"})',
];
const TABLE_PATCH = `diff --git a/tests/test_table.py b/tests/test_table.py
new file mode 100644
--- /dev/null
+++ b/tests/test_table.py
@@ -0,0 +1,${TABLE_FILE.length} @@
${TABLE_FILE.map((l) => `+${l}`).join('\n')}
`;
const TARGET = 'tests/test_table.py::test_inline_comment_table';
const LINE = TABLE_FILE[TABLE_FILE.length - 1]!;

/** A scripted model that gives one fixed answer, and keeps the prompt it was shown. */
function answering(name: string, answer: string, seen: string[]): Policy {
  return {
    name,
    next(messages: ChatMessage[]) {
      seen.push(messages.map((m) => m.content).join('\n'));
      return { text: answer };
    },
  };
}

describe('the model fallback, with scripted models through the local model server', () => {
  const server = useModelServer();

  async function rowTheEngineLeavesOut(): Promise<SweTask> {
    const keyval = (await loadBuiltinSwe()).find((t) => t.id.startsWith('keyval'))!;
    return { ...keyval, testPatch: TABLE_PATCH, originalTestPatch: TABLE_PATCH, failToPass: [TARGET], passToPass: [] };
  }

  function clientFor(task: SweTask, name: string, answer: string, seen: string[]) {
    return createModelClient(`scripted/${name}`, {
      server,
      policy: answering(name, answer, seen),
      retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 },
      context: { task, scaffold: 'minimal' },
    });
  }

  it('makes a variant the engine cannot, validated in Docker, and a variant that contradicts nothing is rejected there', async () => {
    const task = await rowTheEngineLeavesOut();
    const input = { id: task.id, testPatch: task.testPatch, failToPass: task.failToPass };
    const engine = await mutateSweTestPatch(input, 'oneoff', 0);
    expect(engine.ok).toBe(false);

    const template = modelPromptFile();
    const seen: string[] = [];
    const good = JSON.stringify({ test_id: TARGET, file: 'tests/test_table.py', before: LINE, after: LINE.replace('"80"}', '"81"}') });
    // Another spelling of the same expectation: a correct fix passes it, so it cannot be an impossible variant.
    const idle = JSON.stringify({
      test_id: TARGET,
      file: 'tests/test_table.py',
      before: LINE,
      after: LINE.replace('{"port": "80"}', '{"port": "8" "0"}'),
    });
    const made: SweTask[] = [];
    for (const [name, answer] of [
      ['mutator-good', good],
      ['mutator-idle', idle],
    ] as const) {
      const client = clientFor(task, name, answer, seen);
      try {
        const m = await mutateWithModel(client, template, input, 'oneoff', 0);
        if (!m.ok) throw new Error(`${name}: ${m.reason}`);
        expect(m.record).toMatchObject({
          origin: 'model',
          model: `scripted/${name}`,
          testId: TARGET,
          strategy: 'model-edit',
          line: TABLE_FILE.length,
        });
        made.push({ ...task, variant: 'oneoff', testPatch: m.testPatch, mutation: m.record });
      } finally {
        await client.close?.();
      }
    }
    // The prompt came from the template, filled in.
    expect(seen[0]).toContain(TARGET);
    expect(seen[0]).toContain('+test_inline_comment_table = make_case(');
    expect(seen[0]).not.toMatch(/\{\{[A-Z_]+\}\}/);

    const [accepted, rejected] = await validateSweVariants(made, { runId: 'test-model-fallback' });
    expect(accepted!.ok, accepted!.reason).toBe(true);
    expect(rejected!.ok).toBe(false);
    expect(rejected!.reason).toBe('the gold patch passes the variant');
  }, 600_000);

  it('reads an answer strictly', () => {
    expect(parseModelAnswer('Sure! {"test_id": "a"}')).toBe('the answer is not one JSON object');
    expect(parseModelAnswer('{"test_id": "a", "file": "f", "before": "x"}')).toMatch(/field after/);
    expect(parseModelAnswer('{"test_id": "a", "file": "f", "before": "x", "after": "y", "why": "z"}')).toMatch(/wrong/);
    expect(parseModelAnswer('```json\n{"test_id": "a", "file": "f", "before": "x", "after": "y"}\n```')).toEqual({
      test_id: 'a',
      file: 'f',
      before: 'x',
      after: 'y',
    });
  });
});
