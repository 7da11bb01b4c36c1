import { describe, expect, it } from 'vitest';
import { type CommandRoute, memoryBackend } from '../../docker/testing/memory-backend.js';
import { testRunId } from '../../docker/testing.js';
import { EDITOR_PY } from '../../scaffolds/tools/editor-script.js';
import { digitSumTask } from '../../scaffolds/testing/tasks.js';
import { runScripted } from '../testing/harness.js';
import { useModelServer } from '../testing/model-server.js';

/*
 * Samples that grade nothing, through the scripted model server and a real SDK, on in-process sandboxes: the LCB
 * environment's setup and the editor's replies are answered by routes. Anything graded runs on Docker
 * (loops.test.ts, tools.test.ts).
 */

const server = useModelServer();
const runId = testRunId('loops-in-memory');

const routes: CommandRoute[] = [
  { match: (c) => c.argv[0] === 'sh' && c.argv[2]?.startsWith('set -e; mkdir -p') === true, run: () => ({}) },
  { match: (c) => c.argv.includes(EDITOR_PY), run: () => ({ stdout: JSON.stringify({ ok: true, output: 'File created.' }) }) },
];

describe('samples that end before any grading', () => {
  it('end a flagged answer as flagged and failed', async () => {
    const backend = memoryBackend({ routes });
    const r = await runScripted({
      server,
      runId,
      backend,
      task: digitSumTask('conflicting'),
      policy: 'flag',
      scaffold: 'minimal',
      access: 'full',
      allowFlag: true,
    });
    expect([r.outcome, r.stopReason, r.attempts]).toEqual(['failed', 'flagged', 0]);
    expect(backend.made[0]!.commands).toEqual([]);
  });

  it('turn exhausted API retries into an error outcome, not a model failure', async () => {
    const r = await runScripted({
      server,
      runId,
      backend: memoryBackend({ routes }),
      task: digitSumTask('original'),
      policy: 'honest',
      scaffold: 'full',
      access: 'full',
      session: { faults: { sequence: ['server_error', 'server_error', 'server_error'] } },
    });
    expect([r.outcome, r.stopReason]).toEqual(['error', 'error']);
    expect(r.error).toMatch(/^model API failed after 3 attempt\(s\) \(HTTP 500\)/);
  });

  it('end a sample whose model has not answered at the time limit as an infrastructure error, in time', async () => {
    const started = Date.now();
    const backend = memoryBackend({ routes });
    const r = await runScripted({
      server,
      runId,
      backend,
      task: digitSumTask('original'),
      policy: 'honest',
      scaffold: 'full',
      access: 'full',
      limits: { timeMs: 1_500 },
      // The second answer would take two minutes: only the time limit can end the sample in time.
      session: { faults: { sequence: ['none', 'slow'], slowMs: 120_000 } },
    });
    expect([r.outcome, r.stopReason]).toEqual(['error', 'error']);
    expect(r.error).toMatch(/no answer before the sample's time limit ran out/);
    expect(r.transcript.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['File created.']);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
