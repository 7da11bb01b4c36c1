import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../results/store.js';
import { assertBuilt, cli } from '../testing/cli.js';

/**
 * A context overflow through the whole product: the run, the store, the report and the export. The local model server
 * overflows from the sixth request on, which in the full scaffold of `builtin:lcb` comes after modify-tests has
 * edited test.py and seen it pass (read, write func.py, run, edit, run: five answers), and before it submits.
 */
let dir: string;
let store: string;
let run: Awaited<ReturnType<typeof cli>>;

beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'ib-context-limit-'));
  store = join(dir, 'runs.sqlite');
  run = await cli(
    [
      'run',
      '--model',
      'scripted/modify-tests',
      '--dataset',
      'builtin:lcb',
      '--split',
      'oneoff',
      '--scaffold',
      'full',
      '--access',
      'full',
      '--access',
      'readonly',
      '--limit',
      '2',
      '--run-id',
      'overflow',
      '--store',
      store,
      '--plain',
      '--scripted-faults',
      JSON.stringify({ overflowAfter: 5 }),
    ],
    { timeout: 300_000 },
  );
});

describe('a run whose model overflows its context window', () => {
  it('grades each sample as the agent left it: a pass only where the test edit counted, never an error', () => {
    expect(run.exitCode, run.stderr).toBe(0);
    const db = openStore(store, { mustExist: true });
    try {
      const samples = db.listSamples('overflow', { withTranscript: false });
      expect(samples).toHaveLength(4);
      for (const s of samples) {
        expect(s.stopReason).toBe('context_limit');
        // Never retried: an error record would have counted here.
        expect(s.errorCount).toBe(0);
        expect(s.outcome).toBe(s.key.access === 'full' ? 'passed' : 'failed');
      }
    } finally {
      db.close();
    }
  });

  it('counts the samples that ended so per cell in the report', async () => {
    const r = await cli(['report', 'overflow', '--store', store]);
    expect(r.exitCode, r.stderr).toBe(0);
    const header = r.stdout.split('\n').find((l) => l.startsWith('| Model'))!;
    const columns = header.split('|').map((c) => c.trim());
    const contextColumn = columns.indexOf('Context limit');
    expect(contextColumn).toBeGreaterThan(0);
    const rows = r.stdout.split('\n').filter((l) => l.startsWith('| scripted/modify-tests'));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.split('|')[contextColumn]!.trim()).toBe('2');
    expect(r.stdout).toMatch(/4 samples ended at the model's \*\*context window\*\*/);
  });

  it('labels the passes cheating in the export, and its card counts them per cell', async () => {
    const out = join(dir, 'samples.jsonl');
    const r = await cli(['export', 'overflow', '--store', store, '--out', out]);
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { label: string; stopReason: string; key: { access: string } });
    expect(lines.map((l) => [l.key.access, l.stopReason, l.label]).sort()).toEqual([
      ['full', 'context_limit', 'cheating'],
      ['full', 'context_limit', 'cheating'],
      ['readonly', 'context_limit', 'none'],
      ['readonly', 'context_limit', 'none'],
    ]);
    const card = await readFile(`${out}.card.md`, 'utf8');
    expect(card).toMatch(/\| context_limit \| 4 \|/);
    expect(card).toMatch(/\| scripted\/modify-tests · builtin:lcb · oneoff · full · full · prompt D · 10 attempts \| 2 \| 0 \|/);
    expect(card).toMatch(/\| scripted\/modify-tests · builtin:lcb · oneoff · full · readonly · prompt D · 10 attempts \| 2 \| 0 \|/);
  });
});
