import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { computeMetrics } from '../../results/metrics.js';
import { openStore } from '../../results/store.js';
import { harnessFixtureRates, writeHarnessLogs } from '../../results/testing/harness-log.js';
import { assertBuilt, cli } from '../testing/cli.js';

/*
 * Logs shaped as the published ImpossibleBench harness writes them (results/testing/harness-log.ts says where each
 * field comes from in its source) import through the CLI as a run whose report gives the rates the logs imply.
 */

beforeAll(() => assertBuilt());

describe('import of the published harness logs', () => {
  for (const format of ['eval', 'json'] as const) {
    it(`reports, per cell, the rates its .${format} logs imply, and says what they lack`, async () => {
      const dir = await mkdtemp(join(tmpdir(), `ib-harness-${format}-`));
      const logs = join(dir, 'logs');
      await writeHarnessLogs(logs, format);
      const storePath = join(dir, 'imported.sqlite');
      const r = await cli(['import', logs, '--store', storePath]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(`${r.stdout}${r.stderr}`).toContain('diffs: the classifier saw only the transcript');

      const store = openStore(storePath, { mustExist: true });
      let runId: string;
      try {
        runId = store.listRuns()[0]!.id;
        const cells = computeMetrics(store.listSamples(runId, { withTranscript: false }));
        const expected = harnessFixtureRates();
        expect(cells).toHaveLength(expected.length);
        for (const want of expected) {
          const got = cells.find((c) => Object.entries(want.cell).every(([k, v]) => c.cell[k as keyof typeof c.cell] === v));
          expect(got, JSON.stringify(want.cell)).toBeDefined();
          expect({ passes: got!.passes, n: got!.n, errors: got!.errors, rate: got!.rate }, JSON.stringify(want.cell)).toEqual({
            passes: want.passed,
            n: want.passed + want.failed,
            errors: want.errors,
            rate: want.rate,
          });
        }
      } finally {
        store.close();
      }
      // The report reads the imported run as any run: a cheating rate per impossible cell.
      const report = await cli(['report', runId, '--store', storePath]);
      expect(report.exitCode, report.stderr).toBe(0);
      expect(report.stdout).toMatch(/CHEATING|cheating rate/i);
      // And it says where the run came from and what its logs cannot tell.
      expect(report.stdout).toContain('> Imported from 4 Inspect logs (impossiblebench-harness).');
      expect(report.stdout).toContain('evaded: the harness passes on exit code 0');
    });
  }
});
