import { strToU8, unzipSync, zipSync } from 'fflate';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifySample } from '../../results/classify/index.js';
import { verdictsByKey } from '../../results/classify/judge-run.js';
import { importInspectLogs } from '../../results/inspect/import.js';
import { labelOf } from '../../results/labels.js';
import { monitorVerdictsByKey } from '../../results/monitor/verdict.js';
import { openStore, type StoredSample } from '../../results/store.js';
import { judgedRun } from '../testing/judged-run.js';
import { assertBuilt, cli } from '../testing/cli.js';

/*
 * The round trip: a scripted run (the export test's matrix: modify-tests on two LCB tasks, original and one-off, full
 * and read-only access) with a judge's and a monitor's verdicts, reported, exported as Inspect logs, imported into a
 * fresh store and reported again. Then what the import does with broken files and with a crash half-way.
 */

let dir: string;
let store: string;
let runId: string;
let report: string;

beforeAll(async () => {
  assertBuilt();
  ({ dir, store, runId } = await judgedRun('ib-import-', 'scripted/judge', { batch: true }));
  const r = await cli(['report', runId, '--store', store]);
  expect(r.exitCode, r.stderr).toBe(0);
  report = r.stdout;
}, 600_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function exported(format: 'inspect' | 'inspect-json'): Promise<string> {
  const out = join(dir, `out-${format}`);
  const r = await cli(['export', runId, '--format', format, '--out', out, '--store', store]);
  expect(r.exitCode, r.stderr).toBe(0);
  return out;
}

/** A sample as its record: everything but the store's own row id and run. */
const recordOf = ({ id: _id, runId: _run, ...rest }: StoredSample) => rest;

function samplesOf(file: string, id: string) {
  const s = openStore(file);
  try {
    const samples = s.listSamples(id);
    return { samples, judges: verdictsByKey(s, id), monitors: monitorVerdictsByKey(s, id), run: s.getRun(id) };
  } finally {
    s.close();
  }
}

describe.each(['inspect', 'inspect-json'] as const)('export --format %s, then import', (format) => {
  it('gives the same report line for line, and the same samples, labels, kinds, transcripts and verdicts', async () => {
    const logs = await exported(format);
    const fresh = join(dir, `fresh-${format}.sqlite`);
    const imp = await cli(['import', logs, '--store', fresh]);
    expect(imp.exitCode, imp.stderr).toBe(0);
    expect(imp.stderr).toContain(`imported run ${runId}: 8 from impossiblebench logs`);
    expect(imp.stderr).toMatch(/\[2\/2\] .*: 4 samples \(impossiblebench\)/);
    expect(imp.stderr).toContain(`impossiblebench report ${runId} --store ${fresh}`);
    const again = await cli(['report', runId, '--store', fresh]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout.split('\n')).toEqual(report.split('\n'));

    const before = samplesOf(store, runId);
    const after = samplesOf(fresh, runId);
    expect(after.run).toMatchObject({ status: before.run.status, startedAt: before.run.startedAt, endedAt: before.run.endedAt });
    const byKey = (xs: StoredSample[]) => [...xs].sort((a, b) => a.keyString.localeCompare(b.keyString));
    expect(byKey(after.samples).map(recordOf)).toEqual(byKey(before.samples).map(recordOf));
    for (const [a, b] of byKey(after.samples).map((x, i) => [x, byKey(before.samples)[i]!] as const)) {
      expect(labelOf(a)).toBe(labelOf(b));
      expect(classifySample(a)).toEqual(classifySample(b));
      expect(a.transcript).toEqual(b.transcript);
    }
    expect([...after.judges].sort()).toEqual([...before.judges].sort());
    expect([...after.monitors].sort()).toEqual([...before.monitors].sort());
    expect(before.judges.size).toBeGreaterThan(0);
  }, 300_000);
});

describe('import of broken logs', () => {
  it('skips a truncated .eval, a log of an unknown schema version and a sample with broken messages, one line each, and imports the rest', async () => {
    const evals = await exported('inspect');
    const jsons = await exported('inspect-json');
    const bad = join(dir, 'bad');
    const [evalA, evalB] = readdirSync(evals).sort();
    const [jsonA, jsonB] = readdirSync(jsons).sort();
    const { mkdirSync } = await import('node:fs');
    mkdirSync(bad);
    // A truncated .eval: the first half of a good one.
    const whole = readFileSync(join(evals, evalA!));
    writeFileSync(join(bad, 'a-truncated.eval'), whole.subarray(0, Math.floor(whole.length / 2)));
    // A log of schema version 4, which nobody reads yet.
    const future = unzipSync(readFileSync(join(evals, evalB!)));
    const header = JSON.parse(new TextDecoder().decode(future['header.json'])) as { version: number };
    header.version = 4;
    future['header.json'] = strToU8(JSON.stringify(header));
    writeFileSync(join(bad, 'b-future.eval'), zipSync(future));
    // A .json log whose first sample has a message no reader knows; the other three samples are good.
    const doc = JSON.parse(readFileSync(join(jsons, jsonA!), 'utf8')) as { samples: { id: string; epoch: number; messages: { role: string }[] }[] };
    doc.samples[0]!.messages[1]!.role = 'robot';
    const broken = doc.samples[0]!;
    writeFileSync(join(bad, 'c-broken-sample.json'), JSON.stringify(doc));
    // And one good log.
    writeFileSync(join(bad, 'd-good.json'), readFileSync(join(jsons, jsonB!)));

    const fresh = join(dir, 'fresh-bad.sqlite');
    const imp = await cli(['import', bad, '--store', fresh]);
    expect(imp.exitCode, imp.stderr).toBe(3);
    const skipped = imp.stderr.split('\n').filter((l) => l.startsWith('skipped '));
    expect(skipped).toHaveLength(3);
    expect(skipped[0]).toMatch(/a-truncated\.eval: not a zip/);
    expect(skipped[1]).toMatch(/b-future\.eval header\.json: log schema version 4: this reads versions 2 and 3/);
    expect(skipped[2]).toContain(`c-broken-sample.json samples[0] (sample ${broken.id}, epoch ${broken.epoch}): field messages.1.role`);
    expect(imp.stderr).toMatch(/imported run [\w-]+: 7 from impossiblebench logs; 3 skipped/);
  }, 300_000);

  it('leaves a run marked as not finished, holding only whole logs, when the import crashes half-way', async () => {
    const logs = await exported('inspect');
    const file = join(dir, 'crash.sqlite');
    const s = openStore(file);
    try {
      expect(() =>
        importInspectLogs(s, [logs], (line) => {
          if (line.startsWith('[1/2]')) throw new Error('killed');
        }),
      ).toThrow('killed');
      const [run] = s.listRuns();
      expect(run!.status).toBe('running');
      expect(s.listSamples(run!.id)).toHaveLength(4);
    } finally {
      s.close();
    }
    const r = await cli(['report', runId, '--store', file]);
    expect(r.stdout).toContain('is still running (or was killed)');
  }, 300_000);
});
