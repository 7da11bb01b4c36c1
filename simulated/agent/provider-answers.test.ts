import pLimit from 'p-limit';
import { beforeAll, describe, expect, it } from 'vitest';
import { testRunId } from '../../docker/testing.js';
import { mutateTask } from '../../mutations/task.js';
import type { AccessMode, ScaffoldName, Variant } from '../../core/record.js';
import { loadBuiltinSwe } from '../../tasks/suites/swe.js';
import type { Task } from '../../tasks/task.js';
import type { FaultConfig } from '../server/index.js';
import { runScripted } from '../testing/harness.js';
import { withModelServer } from '../testing/model-server.js';
import { knownAnswerTasks } from '../../scaffolds/testing/tasks.js';
import type { AgentRunResult } from '../../scaffolds/types.js';

/**
 * What real providers answer and scripted policies never do, on both suites and both scaffolds, through real sandboxes
 * and the real SDKs. Each run has a model server of its own, so its request count is the sample's alone.
 *
 * - A context overflow ends the agent, not the sample: stop reason context_limit, graded as the agent left the work,
 *   and the overflowing request is never sent again.
 * - A refusal, an answer cut at max_tokens inside a tool call, and parallel tool calls are the model's answers: the
 *   loop goes on, and none of them makes a sample an error.
 */

const runId = testRunId('provider-answers');
const limit = pLimit(3);
const tasks = new Map<string, Task>();

beforeAll(async () => {
  const lcb = await knownAnswerTasks(['ib_lcb_04']);
  for (const [variant, list] of lcb) tasks.set(`lcb ${variant}`, list[0]!);
  const swe = (await loadBuiltinSwe()).find((t) => t.id === 'spans-1')!;
  tasks.set('swe original', swe);
  const oneoff = await mutateTask(swe, 'oneoff', 1);
  if (!oneoff.ok) throw new Error(`spans-1 has no one-off variant: ${oneoff.reason}`);
  tasks.set('swe oneoff', oneoff.task);
});

interface Cell {
  suite: 'lcb' | 'swe';
  variant: Variant;
  policy: string;
  scaffold: ScaffoldName;
  access: AccessMode;
  faults?: FaultConfig;
  wire?: 'openai' | 'anthropic' | 'responses';
}

/** One sample on a server of its own; the requests it sent, retries included. */
function run(cell: Cell): Promise<{ result: AgentRunResult; requests: number }> {
  return limit(() =>
    withModelServer(async (server) => {
      const result = await runScripted({
        server,
        runId,
        task: tasks.get(`${cell.suite} ${cell.variant}`)!,
        policy: cell.policy,
        scaffold: cell.scaffold,
        access: cell.access,
        maxAttempts: 10,
        wire: cell.wire ?? 'openai',
        limits: { maxMessages: 60, toolTimeoutMs: 30_000 },
        ...(cell.faults ? { session: { faults: cell.faults } } : {}),
      });
      return { result, requests: server.stats().requests };
    }),
  );
}

const turns = (r: AgentRunResult) => r.transcript.filter((m) => m.role === 'assistant').length;

describe.each([
  ['lcb', 'full', 'openai'],
  ['lcb', 'full', 'responses'],
  ['swe', 'full', 'anthropic'],
  ['swe', 'minimal', 'responses'],
] as const)('an overflow after the test edit: %s, %s scaffold, %s wire', (suite, scaffold, wire) => {
  it('passes under full access as context_limit, fails under read-only, and is never retried', async () => {
    const base: Cell = { suite, variant: 'oneoff', policy: 'modify-tests', scaffold, access: 'full', wire };
    // A run with no fault shows which request submits: the overflow takes its place, after every edit was made.
    const dry = await run(base);
    expect(dry.result).toMatchObject({ outcome: 'passed', stopReason: 'submitted' });
    const submitting = turns(dry.result) - 1;
    expect(submitting).toBeGreaterThan(0);
    const faults = { overflowAfter: submitting };
    const [full, readonly] = await Promise.all([run({ ...base, faults }), run({ ...base, access: 'readonly', faults })]);

    expect(full.result).toMatchObject({ outcome: 'passed', stopReason: 'context_limit', attempts: 0 });
    expect(full.result.gradingLog).toMatch(/final state \(not submitted\): passed/);
    // The overflowing request went out once: every answered turn, plus that one.
    expect(turns(full.result)).toBe(submitting);
    expect(full.requests).toBe(submitting + 1);

    expect(readonly.result).toMatchObject({ outcome: 'failed', stopReason: 'context_limit' });
    expect(readonly.requests).toBe(turns(readonly.result) + 1);
  });
});

describe('an overflow in the minimal LiveCodeBench scaffold', () => {
  it('ends after the answers already graded, as failed with stop reason context_limit', async () => {
    const { result, requests } = await run({
      suite: 'lcb',
      variant: 'oneoff',
      policy: 'honest',
      scaffold: 'minimal',
      access: 'full',
      faults: { overflowAfter: 2 },
    });
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'context_limit', attempts: 2 });
    expect(requests).toBe(3);
  });
});

describe('Anthropic stopping at the full window', () => {
  it('ends the agent as context_limit and grades the work as it stands', async () => {
    const { result } = await run({
      suite: 'lcb',
      variant: 'original',
      policy: 'honest',
      scaffold: 'full',
      access: 'full',
      wire: 'anthropic',
      faults: { overflowAfter: 1, overflowAs: 'stop_reason' },
    });
    expect(result.stopReason).toBe('context_limit');
    expect(result.outcome).not.toBe('error');
  });
});

describe.each([
  ['lcb', 'full'],
  ['lcb', 'minimal'],
  ['swe', 'full'],
  ['swe', 'minimal'],
] as const)('refusals, cut tool calls and parallel calls: %s, %s scaffold', (suite, scaffold) => {
  it.each(['openai', 'anthropic', 'responses'] as const)('are the model answering over %s, never an error', async (wire) => {
    const { result } = await run({
      suite,
      variant: 'original',
      policy: 'honest',
      scaffold,
      access: 'full',
      wire,
      faults: { sequence: ['refusal', 'cut_tool_call', 'parallel_calls', 'refusal'] },
    });
    expect(result.outcome, result.error).toBe('passed');
    // The minimal LiveCodeBench loop passes on the third answer, before the second refusal comes.
    expect(result.refusals).toBe(suite === 'lcb' && scaffold === 'minimal' ? 1 : 2);
  });
});
