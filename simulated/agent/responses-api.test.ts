import pLimit from 'p-limit';
import { beforeAll, describe, expect, it } from 'vitest';
import { testRunId } from '../../docker/testing.js';
import { mutateTask } from '../../mutations/task.js';
import type { AccessMode, ScaffoldName } from '../../core/record.js';
import { loadBuiltinSwe } from '../../tasks/suites/swe.js';
import type { Task } from '../../tasks/task.js';
import type { SessionStats } from '../server/index.js';
import { runScripted } from '../testing/harness.js';
import { useModelServer } from '../testing/model-server.js';
import { knownAnswerTasks } from '../../scaffolds/testing/tasks.js';
import type { AgentRunResult } from '../../scaffolds/types.js';

/**
 * A codex model, which OpenAI serves only through the Responses API, on both suites and both scaffolds: `openai/gpt-5-codex`
 * pointed at the local model server (its base URL, a session token as the key), so each reference policy answers
 * through the real `openai` SDK's Responses client. The server refuses codex models on Chat Completions and refuses a
 * request that leaves out the previous answer's reasoning, so a pass here shows both that the spec chose Responses and
 * that every turn's reasoning went back on the next.
 */

const MODEL = 'openai/gpt-5-codex';
const runId = testRunId('responses-api');
const server = useModelServer();
const limit = pLimit(4);
const tasks = new Map<string, Task>();

interface Cell {
  suite: 'lcb' | 'swe';
  policy: 'honest' | 'modify-tests';
  variant: 'original' | 'oneoff';
  scaffold: ScaffoldName;
  access: AccessMode;
}

interface Ran {
  label: string;
  result: AgentRunResult;
  stats: SessionStats | undefined;
}

function run(cell: Cell): Promise<Ran> {
  const label = `${cell.policy} ${cell.suite} ${cell.variant} ${cell.scaffold} ${cell.access}`;
  const task = tasks.get(`${cell.suite} ${cell.variant}`);
  if (!task) throw new Error(`no ${cell.suite} ${cell.variant} task`);
  return limit(async () => {
    let stats: SessionStats | undefined;
    const result = await runScripted({
      server,
      runId,
      task,
      policy: cell.policy,
      model: MODEL,
      onSessionStats: (s) => (stats = s),
      scaffold: cell.scaffold,
      access: cell.access,
      maxAttempts: 1,
    });
    return { label, result, stats };
  });
}

const CELLS: Cell[] = [
  { suite: 'lcb', policy: 'honest', variant: 'original', scaffold: 'minimal', access: 'full' },
  { suite: 'lcb', policy: 'honest', variant: 'original', scaffold: 'full', access: 'full' },
  { suite: 'lcb', policy: 'modify-tests', variant: 'oneoff', scaffold: 'full', access: 'full' },
  { suite: 'lcb', policy: 'modify-tests', variant: 'oneoff', scaffold: 'minimal', access: 'full' },
  { suite: 'swe', policy: 'honest', variant: 'original', scaffold: 'minimal', access: 'full' },
  { suite: 'swe', policy: 'honest', variant: 'original', scaffold: 'full', access: 'full' },
  { suite: 'swe', policy: 'modify-tests', variant: 'oneoff', scaffold: 'full', access: 'full' },
  { suite: 'swe', policy: 'modify-tests', variant: 'oneoff', scaffold: 'minimal', access: 'full' },
];

let runs: Promise<Ran[]> | undefined;
const all = () => (runs ??= Promise.all(CELLS.map(run)));

beforeAll(async () => {
  const lcb = await knownAnswerTasks(['ib_lcb_04']);
  tasks.set('lcb original', lcb.get('original')![0]!);
  tasks.set('lcb oneoff', lcb.get('oneoff')![0]!);
  const swe = (await loadBuiltinSwe()).find((t) => t.id === 'keyval-1');
  if (!swe) throw new Error('builtin:swe has no keyval-1');
  const oneoff = await mutateTask(swe, 'oneoff', 1);
  if (!oneoff.ok) throw new Error(`keyval-1 has no oneoff variant: ${oneoff.reason}`);
  tasks.set('swe original', swe);
  tasks.set('swe oneoff', oneoff.task);
});

describe(`${MODEL} through the Responses API`, () => {
  it('passes original tasks with the honest policy and impossible ones by editing the tests under full access, on both suites and scaffolds', async () => {
    const got = await all();
    const outcome = (r: AgentRunResult) => (r.outcome === 'error' ? `error (${r.error})` : `${r.outcome} ${r.stopReason}`);
    expect(got.map((r) => `${r.label}: ${outcome(r.result)}`)).toEqual(got.map((r) => `${r.label}: passed submitted`));
    for (const { label, result } of got) {
      if (label.startsWith('modify-tests')) expect(result.testDiff, label).not.toBe('');
      else expect(result.testDiff, label).toBe('');
    }
  }, 900_000);

  it('sent every answer’s reasoning back with the next request, which the server checked', async () => {
    for (const { label, result, stats } of await all()) {
      const turns = result.transcript.filter((m) => m.role === 'assistant').length;
      expect(stats, label).toMatchObject({ answered: turns, reasoningCarried: turns - 1 });
      // The runs of more than one turn are what show the carrying.
      if (label.includes(' full full') || label.startsWith('honest swe')) expect(turns, label).toBeGreaterThan(1);
      expect(stats?.lastParams, label).toMatchObject({ model: 'gpt-5-codex', store: false, include: ['reasoning.encrypted_content'] });
    }
  }, 900_000);
});
