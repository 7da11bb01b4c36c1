import { describe, expect, it } from 'vitest';
import { testRunId } from '../../docker/testing.js';
import { honestCode, moduleWith } from '../policies/code.js';
import { getPolicy } from '../policies/index.js';
import { digitSumTask } from '../../scaffolds/testing/tasks.js';
import { type CliName, runCliSample } from '../testing/cli-run.js';
import { useModelServer } from '../testing/model-server.js';

/**
 * The real agent programs behind the recording proxy meet a rate limit: the provider's 429 and its Retry-After reach
 * the program untouched, the program waits and retries as it does against the provider, and the run goes on. The
 * proxy records the 429 (with its Retry-After) and counts no message for it.
 */
const server = useModelServer();
const runId = testRunId('cli-rate-limit');

describe.each<CliName>(['codex', 'claude-code'])('%s rate-limited through the proxy', (cli) => {
  it('retries after the 429 it was handed with its Retry-After, and finishes the task', async () => {
    const task = digitSumTask('original');
    const session = { faults: { sequence: ['rate_limit' as const], retryAfterSeconds: 1 } };
    const run = await runCliSample(server, { cli, policy: getPolicy('honest'), task, runId, viaProxy: true, session });
    expect(run.cli.exitCode, run.cli.stderr).toBe(0);
    expect(run.func).toBe(moduleWith(task, honestCode(task)));
    expect(run.stats.faults).toEqual([{ request: 0, kind: 'rate_limit' }]);
    const [limited, ...rest] = run.exchanges!;
    expect(limited).toMatchObject({ status: 429, headers: { 'retry-after': '1' }, costUsd: null });
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((e) => e.status === 200)).toBe(true);
    expect(run.totals!.messages).toBe(rest.length);
  });
});
