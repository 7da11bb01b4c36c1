import { execa } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { SCRIPTED_JUDGE, BATCH_CONTEXT } from '../../results/classify/judge-policy.js';
import { JUDGE_EVENT, JudgeVerdictSchema } from '../../results/classify/judge.js';
import { SCRIPTED_MONITORS } from '../../results/monitor/policies.js';
import { MONITOR_EVENT, MonitorVerdictSchema } from '../../results/monitor/verdict.js';
import { openStore } from '../../results/store.js';
import { storeSampleRun } from '../../results/testing/sample-run.js';
import { useModelServer } from '../../simulated/testing/model-server.js';
import { startModelServer, type FaultConfig } from '../../simulated/server/index.js';
import { BIN } from '../testing/cli.js';

// These run the built CLI (`npm run build` first; `npm test` does) against the local model server as the provider: the
// real OpenAI and Anthropic SDKs, with a session token for the API key and the server for the base URL.
const dir = mkdtempSync(join(tmpdir(), 'ib-cli-batch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// A batch waits a little before it is answered, so the command sees it in progress.
const server = useModelServer({ batchDelayMs: 300 });

let stores = 0;
function sampleStore(): string {
  const file = join(dir, `store-${++stores}.sqlite`);
  const store = openStore(file);
  storeSampleRun(store, 'sample-run');
  store.close();
  return file;
}

type Provider = 'openai' | 'openai-responses' | 'anthropic';
const MODEL: Record<Provider, string> = {
  openai: 'openai/gpt-5',
  'openai-responses': 'openai-responses/gpt-5',
  anthropic: 'anthropic/claude-sonnet-4-5',
};

/** The CLI with `model`'s provider played by a session of the server that `policy` answers in. */
function withProvider(provider: Provider, policy: typeof SCRIPTED_JUDGE, faults?: FaultConfig) {
  const token = server.openSession(policy, BATCH_CONTEXT, faults ? { faults } : {});
  const baseUrl = provider === 'anthropic' ? server.anthropicBaseUrl : server.openaiBaseUrl;
  const run = (...args: string[]) =>
    execa(process.execPath, [BIN, ...args, '--model', MODEL[provider], '--base-url', baseUrl], {
      cwd: dir,
      reject: false,
      env: { IMPOSSIBLEBENCH_DEBUG: '', OPENAI_API_KEY: token, ANTHROPIC_API_KEY: token },
    });
  return { token, run };
}

/** The stored verdicts of one kind of event, by sample key, each parsed with its schema. */
function stored<T>(file: string, event: string, schema: { parse(v: unknown): T }): Map<string, T[]> {
  const store = openStore(file, { readonly: true });
  const out = new Map<string, T[]>();
  for (const e of store.listEvents('sample-run', event)) out.set(e.sampleKey!, [...(out.get(e.sampleKey!) ?? []), schema.parse(e.data)]);
  store.close();
  return out;
}

describe('classify --batch and monitor --batch', () => {
  it('classify --batch gives the verdicts classify gives one by one, at half the price (OpenAI Batch API)', async () => {
    // One request at a time, so both sessions see the same prompts in the same order and their prompt caches agree.
    const plainStore = sampleStore();
    const plain = await withProvider('openai', SCRIPTED_JUDGE).run('classify', 'sample-run', '--store', plainStore, '--concurrency', '1');
    expect(plain.exitCode).toBe(0);
    const batchStore = sampleStore();
    const { token, run } = withProvider('openai', SCRIPTED_JUDGE);
    const batch = await run('classify', 'sample-run', '--store', batchStore, '--batch', '--batch-poll', '0.1');
    expect(batch.exitCode).toBe(0);
    expect(batch.stdout.split('\n')[0]).toBe(plain.stdout.split('\n')[0]);
    expect(batch.stderr).toMatch(/^submitted batch batch_\w+ of 21 requests$/m);
    expect(server.batchStats(token)).toEqual({ created: 1, requests: 21 });

    const one = stored(plainStore, JUDGE_EVENT, JudgeVerdictSchema);
    const many = stored(batchStore, JUDGE_EVENT, JudgeVerdictSchema);
    expect([...many.keys()].sort()).toEqual([...one.keys()].sort());
    for (const [key, [v]] of many) {
      const [p] = one.get(key)!;
      expect(v!.kind).toBe(p!.kind);
      expect([v!.inputTokens, v!.outputTokens]).toEqual([p!.inputTokens, p!.outputTokens]);
      expect(v!.batch).toBe(true);
      expect(p!.batch).toBeUndefined();
      expect(p!.costUsd).toBeGreaterThan(0);
      expect(v!.costUsd).toBeCloseTo(p!.costUsd! / 2, 12);
    }
  });

  it('monitor --batch gives the scores monitor gives one by one, at half the price (Anthropic Message Batches)', async () => {
    const rule = SCRIPTED_MONITORS['monitor-rule']!;
    const plainStore = sampleStore();
    const plain = await withProvider('anthropic', rule).run('monitor', 'sample-run', '--store', plainStore, '--concurrency', '1');
    expect(plain.exitCode).toBe(0);
    const batchStore = sampleStore();
    const { token, run } = withProvider('anthropic', rule);
    const batch = await run('monitor', 'sample-run', '--store', batchStore, '--batch', '--batch-poll', '0.1');
    expect(batch.exitCode).toBe(0);
    expect(batch.stderr).toMatch(/^submitted batch msgbatch_\w+ of 49 requests$/m);
    expect(server.batchStats(token)).toEqual({ created: 1, requests: 49 });
    // The same rates tables, but for the cost, which is half.
    const costless = (stdout: string) =>
      stdout
        .split('\n')
        .slice(1)
        .map((l) => l.replace(/ \$[\d.]+ \|$/, ' |'));
    expect(costless(batch.stdout)).toEqual(costless(plain.stdout));
    expect(batch.stdout).toMatch(/\| 44,006 \| \$0\.07 \|$/m);
    expect(plain.stdout).toMatch(/\| 44,006 \| \$0\.14 \|$/m);

    const one = stored(plainStore, MONITOR_EVENT, MonitorVerdictSchema);
    const many = stored(batchStore, MONITOR_EVENT, MonitorVerdictSchema);
    expect(many.size).toBe(49);
    for (const [key, [v]] of many) {
      const [p] = one.get(key)!;
      expect([v!.status, v!.score, v!.reason]).toEqual([p!.status, p!.score, p!.reason]);
      expect(v!.batch).toBe(true);
      expect(p!.costUsd).toBeGreaterThan(0);
      expect(v!.costUsd).toBeCloseTo(p!.costUsd! / 2, 12);
    }
  });

  it('a command killed while its batch is in progress finds the batch again when rerun, and submits nothing twice', async () => {
    const file = sampleStore();
    // A server of its own, whose batch waits long enough for the command to be killed while it polls.
    const slow = await startModelServer({ batchDelayMs: 4000 });
    try {
      const slowToken = slow.openSession(SCRIPTED_JUDGE, BATCH_CONTEXT);
      const args = [
        'classify',
        'sample-run',
        '--store',
        file,
        '--batch',
        '--batch-poll',
        '0.1',
        '--model',
        MODEL.anthropic,
        '--base-url',
        slow.anthropicBaseUrl,
      ];
      const env = { IMPOSSIBLEBENCH_DEBUG: '', ANTHROPIC_API_KEY: slowToken };
      const child = execa(process.execPath, [BIN, ...args], { cwd: dir, reject: false, env });
      // Wait until the batch is in the store, then kill the command outright.
      for (let i = 0; openBatchCount(file) === 0; i++) {
        if (i > 600) throw new Error('the command never stored its batch');
        await sleep(50);
      }
      child.kill('SIGKILL');
      const killed = await child;
      expect(killed.signal).toBe('SIGKILL');
      expect(stored(file, JUDGE_EVENT, JudgeVerdictSchema).size).toBe(0);

      const again = await execa(process.execPath, [BIN, ...args], { cwd: dir, reject: false, env });
      expect(again.exitCode).toBe(0);
      expect(again.stderr).toMatch(/^found 1 batch submitted before \(msgbatch_\w+\); waiting for them$/m);
      expect(again.stderr).not.toContain('submitted batch');
      expect(again.stdout.split('\n')[0]).toBe(
        'judged 21 of 21 cheating or evaded samples with anthropic/claude-sonnet-4-5: modify-tests 10, other 11',
      );
      // One batch, each request answered once, each verdict stored once.
      expect(slow.batchStats(slowToken)).toEqual({ created: 1, requests: 21 });
      expect(slow.sessionStats(slowToken)!.answered).toBe(21);
      const verdicts = stored(file, JUDGE_EVENT, JudgeVerdictSchema);
      expect(verdicts.size).toBe(21);
      expect([...verdicts.values()].every((v) => v.length === 1)).toBe(true);
      expect(openBatchCount(file)).toBe(0);
      // A third call finds nothing left to ask.
      const third = await execa(process.execPath, [BIN, ...args], { cwd: dir, reject: false, env });
      expect(third.stdout.split('\n')[0]).toContain('judged 0 of 21');
      expect(slow.batchStats(slowToken).created).toBe(1);
    } finally {
      await slow.close();
    }
  });

  it('a scripted judge answers a batch through the local server; a model without a batch API is refused in one line; the help names the flags', async () => {
    const file = sampleStore();
    const cli = (...args: string[]) => execa(process.execPath, [BIN, ...args], { cwd: dir, reject: false, env: { IMPOSSIBLEBENCH_DEBUG: '' } });
    const r = await cli('classify', 'sample-run', '--model', 'scripted/judge', '--batch', '--batch-poll', '0.1', '--store', file);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('judged 21 of 21 cheating or evaded samples with scripted/judge: modify-tests 10, other 11');
    expect(stored(file, JUDGE_EVENT, JudgeVerdictSchema).size).toBe(21);
    const compatible = await cli(
      'monitor',
      'sample-run',
      '--model',
      'openai-compatible/m',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--batch',
      '--store',
      file,
    );
    expect(compatible.exitCode).toBe(1);
    expect(compatible.stderr.split('\n')[0]).toBe('impossiblebench: openai-compatible/m has no batch API here');
    for (const command of ['classify', 'monitor']) {
      const help = await cli(command, '--help');
      expect(help.stdout).toContain('--batch ');
      expect(help.stdout).toContain('--batch-poll <seconds>');
    }
  });

  it('a batch that expires half done has the rest sent again in a new batch, and every verdict arrives', async () => {
    // OpenAI's Batch API over Chat Completions and over Responses, and Anthropic's Message Batches.
    for (const provider of ['openai', 'openai-responses', 'anthropic'] as const) {
      const file = sampleStore();
      const { token, run } = withProvider(provider, SCRIPTED_JUDGE, { batchExpire: 1 });
      const r = await run('classify', 'sample-run', '--store', file, '--batch', '--batch-poll', '0.1');
      expect(r.exitCode).toBe(0);
      // 10 of the 21 were answered before the first batch expired; the other 11 go in a second one.
      expect(r.stderr).toContain("11 expired of the batch's requests came back without an answer; sending those 11 again in a new batch");
      expect(r.stdout.split('\n')[0]).toBe(`judged 21 of 21 cheating or evaded samples with ${MODEL[provider]}: modify-tests 10, other 11`);
      expect(server.batchStats(token)).toEqual({ created: 2, requests: 32 });
      expect(server.sessionStats(token)!.answered).toBe(21);
      const verdicts = stored(file, JUDGE_EVENT, JudgeVerdictSchema);
      expect(verdicts.size).toBe(21);
      expect([...verdicts.values()].every((v) => v.length === 1 && v[0]!.batch === true)).toBe(true);
    }
  });
});

function openBatchCount(file: string): number {
  const store = openStore(file, { readonly: true });
  try {
    return (store.database.prepare('SELECT COUNT(*) AS n FROM model_batches WHERE closed_at IS NULL').get() as { n: number }).n;
  } finally {
    store.close();
  }
}
