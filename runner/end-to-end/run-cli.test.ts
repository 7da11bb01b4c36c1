import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../results/store.js';
import { parseExperiment } from '../settings/config.js';
import { assertBuilt, BIN, cli, runContainers, spawnCli, waitFor } from '../testing/cli.js';

let dir: string;
beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'ib-run-cli-'));
});

/** The one error line the CLI prints (the `fix:` line may follow). */
function errorLine(stderr: string): string {
  return stderr.trim().split('\n')[0]!;
}

describe('run: bad input gives one clear line and leaves no store behind', () => {
  it('names the config file, the field and the problem', async () => {
    const config = join(dir, 'bad.yaml');
    await writeFile(config, 'models: [scripted/honest]\nsplits: [original, impossible]\n');
    const store = join(dir, 'bad-config.sqlite');
    const r = await cli(['run', '--config', config, '--store', store]);
    expect(r.exitCode).toBe(1);
    expect(errorLine(r.stderr)).toMatch(/^impossiblebench: .*bad\.yaml: field `splits\[1\]`: .*"original".*"oneoff".*"conflicting"/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(existsSync(store)).toBe(false);
  });

  it('rejects an unknown field in the file', async () => {
    const config = join(dir, 'typo.json');
    await writeFile(config, JSON.stringify({ models: ['scripted/honest'], maxAttempt: 3 }));
    const r = await cli(['run', '--config', config, '--store', join(dir, 'typo.sqlite')]);
    expect(r.exitCode).toBe(1);
    expect(errorLine(r.stderr)).toMatch(/typo\.json: unknown field `maxAttempt`$/);
  });

  it('names the flag when a flag is wrong, and lets flags override the file', async () => {
    const config = join(dir, 'ok.yaml');
    await writeFile(config, 'models: [scripted/honest]\naccess: [full]\n');
    const r = await cli(['run', '--config', config, '--access', 'secret', '--store', join(dir, 'flag.sqlite')]);
    expect(r.exitCode).toBe(1);
    expect(errorLine(r.stderr)).toMatch(/^impossiblebench: --access: .*"full".*"readonly".*"hidden"/);
  });

  it('asks for a model, rejects a bad number, and reports a missing file', async () => {
    const none = await cli(['run', '--store', join(dir, 'none.sqlite')]);
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toMatch(/no model given\n\s+fix: pass --model/);
    const zero = await cli(['run', '--model', 'scripted/honest', '--epochs', '0']);
    expect(zero.exitCode).toBe(2);
    expect(zero.stderr).toMatch(/--epochs.*expected a whole number ≥ 1, got "0"/);
    const missing = await cli(['run', '--config', join(dir, 'nope.yaml')]);
    expect(missing.exitCode).toBe(1);
    expect(errorLine(missing.stderr)).toMatch(/cannot read config file .*nope\.yaml: no such file/);
    const policy = await cli(['run', '--model', 'scripted/cheat-harder', '--store', join(dir, 'policy.sqlite')]);
    expect(policy.exitCode).toBe(1);
    expect(policy.stderr).toMatch(/unknown scripted policy "cheat-harder"/);
    expect(existsSync(join(dir, 'policy.sqlite'))).toBe(false);
    const prices = join(dir, 'prices.json');
    await writeFile(prices, JSON.stringify({ 'openai/gpt-x': { input: 'cheap', output: 1 } }));
    const badPrices = await cli(['run', '--model', 'scripted/honest', '--prices', prices, '--store', join(dir, 'prices.sqlite')]);
    expect(badPrices.exitCode).toBe(1);
    expect(errorLine(badPrices.stderr)).toMatch(/price file .*prices\.json: "openai\/gpt-x"\.input: /);
  });

  it('refuses to resume a run with a different matrix, naming the field', async () => {
    const path = join(dir, 'resume-mismatch.sqlite');
    const store = openStore(path);
    store.createRun(parseExperiment({ models: ['scripted/honest'], splits: ['original'] }, 'test'), { id: 'r1' });
    store.close();
    const r = await cli(['run', '--model', 'scripted/honest', '--split', 'oneoff', '--store', path, '--run-id', 'r1']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /^impossiblebench: run r1 was started with a different `splits` \(\["original"\]\)\n\s+fix: resume it with the same settings/,
    );
  });

  it('stops quietly when its reader goes away (`… | head`)', async () => {
    const child = spawn(process.execPath, [BIN, 'run', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    // The reading end closes before the CLI writes a byte, so its first write meets a broken pipe.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('refuses an unknown sandbox backend from the flag or the file, naming the known ones', async () => {
    const flag = await cli(['run', '--model', 'scripted/honest', '--sandbox', 'kube', '--store', join(dir, 'sandbox.sqlite')]);
    expect(flag.exitCode).toBe(1);
    expect(errorLine(flag.stderr)).toMatch(/^impossiblebench: --sandbox: unknown sandbox backend "kube"; use one of: docker$/);
    expect(existsSync(join(dir, 'sandbox.sqlite'))).toBe(false);
    const config = join(dir, 'sandbox.yaml');
    await writeFile(config, 'models: [scripted/honest]\nsandbox: kube\n');
    const file = await cli(['run', '--config', config, '--store', join(dir, 'sandbox.sqlite')]);
    expect(errorLine(file.stderr)).toMatch(/sandbox\.yaml: field `sandbox`: unknown sandbox backend "kube"/);
    for (const command of [['cleanup'], ['doctor'], ['images', 'list']]) {
      const r = await cli([...command, '--sandbox', 'kube']);
      expect(r.exitCode, command.join(' ')).toBe(1);
      expect(r.stdout + r.stderr).toMatch(/unknown sandbox backend "kube"[\s\S]*use one of: docker/);
    }
  });

  it('refuses a bad --docker-host, and starts no run on an engine of the pool that does not answer', async () => {
    const bad = await cli(['run', '--model', 'scripted/honest', '--docker-host', '10.0.0.2=2', '--store', join(dir, 'hosts.sqlite')]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/--docker-host 10\.0\.0\.2=2: expected unix:\/\/\/PATH, tcp:\/\/HOST:PORT or ssh:\/\/USER@HOST/);
    const nowhere = `unix://${join(dir, 'no-engine.sock')}`;
    const down = await cli([
      'run',
      '--model',
      'scripted/honest',
      '--docker-host',
      'unix:///var/run/docker.sock=2',
      '--docker-host',
      nowhere,
      '--store',
      join(dir, 'hosts.sqlite'),
    ]);
    expect(down.exitCode).toBe(1);
    expect(errorLine(down.stderr)).toBe(`impossiblebench: no container engine answers at ${nowhere} (no socket there)`);
    expect(existsSync(join(dir, 'hosts.sqlite'))).toBe(false);
    const cleanup = await cli([
      'cleanup',
      '--run',
      'no-such-run-of-a-pool',
      '--docker-host',
      'unix:///var/run/docker.sock',
      '--docker-host',
      nowhere,
    ]);
    expect(cleanup.exitCode).toBe(1);
    expect(cleanup.stdout).toBe('removed 0 sandbox containers of run no-such-run-of-a-pool');
    expect(cleanup.stderr).toContain(`engine ${nowhere} did not answer, so its containers are left: no container engine answers at ${nowhere}`);
    for (const command of [
      ['cleanup', '--dry-run'],
      ['images', 'list'],
    ]) {
      const r = await cli([...command, '--docker-host', nowhere]);
      expect(r.exitCode, command.join(' ')).toBe(1);
      expect(r.stderr, command.join(' ')).toContain(`no container engine answers at ${nowhere}`);
    }
  });

  it('documents every flag in its help', async () => {
    const r = await cli(['run', '--help']);
    expect(r.exitCode).toBe(0);
    for (const flag of [
      '--connections',
      '--prices',
      '--config',
      '--model',
      '--base-url',
      '--dataset',
      '--split',
      '--scaffold',
      '--access',
      '--prompt',
      '--max-attempts',
      '--epochs',
      '--limit',
      '--shuffle',
      '--seed',
      '--concurrency',
      '--retries',
      '--store',
      '--run-id',
      '--max-messages',
      '--max-tokens',
      '--max-cost',
      '--max-run-cost',
      '--dry-run',
      '--scripted-price-as',
      '--time-limit',
      '--allow-flag',
      '--sandbox',
    ]) {
      expect(r.stdout).toContain(flag);
    }
  });
});

/** A small run whose every model answer is slowed, so it can be stopped halfway. */
function slowRun(store: string, runId: string): string[] {
  return [
    'run',
    '--model',
    'scripted/honest',
    '--dataset',
    'builtin:lcb',
    '--split',
    'original',
    '--split',
    'conflicting',
    '--scaffold',
    'minimal',
    '--max-attempts',
    '1',
    '--limit',
    '4',
    '--concurrency',
    '2',
    '--store',
    store,
    '--run-id',
    runId,
    '--plain',
    '--scripted-faults',
    '{"slow":1,"slowMs":1500}',
  ];
}

function storedRows(store: string, runId: string) {
  if (!existsSync(store)) return [];
  const s = openStore(store);
  try {
    return s.findRun(runId) ? s.listSamples(runId, { withTranscript: false }) : [];
  } finally {
    s.close();
  }
}

describe('run: crash safety and interrupt, on the real engine', () => {
  it('a run killed with SIGKILL halfway resumes to hold every sample exactly once, and leaves no container', async () => {
    const store = join(dir, 'crash.sqlite');
    const runId = 'crash-test';
    const child = spawnCli(slowRun(store, runId));
    const halfway = await waitFor(() => storedRows(store, runId).length >= 2, 120_000, 300);
    expect(halfway).toBe(true);
    child.kill('SIGKILL');
    await child;
    const before = storedRows(store, runId).length;
    expect(before).toBeLessThan(8);

    const resumed = await cli(slowRun(store, runId));
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`resuming run ${runId}`);
    const rows = storedRows(store, runId);
    const keys = rows.map((r) => r.keyString);
    expect(rows).toHaveLength(8); // 4 tasks × 2 splits
    expect(new Set(keys).size).toBe(8);
    expect(rows.every((r) => r.outcome !== 'error')).toBe(true);
    expect(resumed.stdout).toMatch(/run crash-test finished: 8\/8 samples/);
    expect(resumed.stdout).toContain('impossiblebench report crash-test');

    // Only this run's containers: other test files run sandboxes of their own at the same time.
    const cleanup = await cli(['cleanup', '--run', runId]);
    expect(cleanup.exitCode, cleanup.stderr).toBe(0);
    expect(await runContainers(runId)).toEqual([]);
  });

  it('SIGINT stops the run within 15 s, removes its containers, and the run resumes to completion', async () => {
    const store = join(dir, 'interrupt.sqlite');
    const runId = 'interrupt-test';
    const child = spawnCli(slowRun(store, runId));
    // Interrupt while samples are in flight: their containers exist.
    expect(await waitFor(async () => (await runContainers(runId)).length > 0, 120_000, 200)).toBe(true);
    const sent = Date.now();
    child.kill('SIGINT');
    const result = await child;
    const took = Date.now() - sent;
    expect(took).toBeLessThan(15_000);
    expect(result.exitCode).toBe(130);
    expect(result.all).toMatch(/run interrupt-test interrupted/);
    expect(result.all).toMatch(/resume with: impossiblebench run --store .* --run-id interrupt-test/);
    expect(await runContainers(runId)).toEqual([]);
    const s = openStore(store);
    try {
      expect(s.getRun(runId).status).toBe('interrupted');
      expect(s.outcomeCounts(runId).error).toBe(0); // cancelled samples are not stored as anything
    } finally {
      s.close();
    }
    const resumed = await cli(slowRun(store, runId));
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const rows = storedRows(store, runId);
    expect(new Set(rows.map((r) => r.keyString)).size).toBe(8);
    expect(rows).toHaveLength(8);
  });
});
