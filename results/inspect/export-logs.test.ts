import { strFromU8, unzipSync } from 'fflate';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../core/errors.js';
import { requireSharedData } from '../../core/testing/shared-data.js';
import { inspectSchema } from '../testing/inspect-schema.js';
import { storeSampleRun } from '../testing/sample-run.js';
import { useTempStore } from '../testing/temp-store.js';
import { exportInspectLogs } from './export-logs.js';
import { readInspectLog } from './read.js';

const temp = useTempStore({ prefix: 'ib-inspect-logs-' });

/*
 * The varied sample run (errors, evasions, tampering, flags, unknown costs, hostile text) as Inspect logs: every
 * header and sample valid against Inspect's schema, errors told as errors and never in a rate.
 */
describe('exportInspectLogs', () => {
  it('writes a valid log per configuration of a varied run, errors kept out of every rate', async (ctx) => {
    const schema = inspectSchema(requireSharedData(ctx, 'inspect-logs/inspect-openapi.json'));
    const run = storeSampleRun(temp.store);
    const samples = temp.store.listSamples(run);
    const lines: string[] = [];
    const logs = await exportInspectLogs(temp.store, run, join(temp.dir, 'logs'), 'inspect', (l) => lines.push(l));
    expect(logs.reduce((n, l) => n + l.samples, 0)).toBe(samples.length);
    expect(lines).toHaveLength(logs.length);
    let errors = 0;
    for (const { file } of logs) {
      const bytes = readFileSync(file);
      // Sizes in the local header and no data descriptor: Inspect's viewer reads an entry by its local header alone.
      expect([bytes.readUInt16LE(6) & 0x8, bytes.readUInt32LE(18) > 0]).toEqual([0, true]);
      const zip = unzipSync(bytes);
      const header = JSON.parse(strFromU8(zip['header.json']!)) as Record<string, unknown>;
      expect(schema.log(header), JSON.stringify(schema.log.errors)).toBe(true);
      const log = readInspectLog(file);
      for (const name of log.entries.filter((n) => n.startsWith('samples/'))) {
        const sample = JSON.parse(strFromU8(zip[name]!)) as { events: { event: string }[]; messages: { role: string }[] };
        expect(schema.sample(sample), `${name}: ${JSON.stringify(schema.sample.errors)}`).toBe(true);
        // Its events are checked too: a timeline of its turns, and an event missing a field fails.
        expect(sample.events[0]!.event).toBe('sample_init');
        const count = (xs: string[], x: string) => xs.filter((y) => y === x).length;
        expect(
          count(
            sample.events.map((e) => e.event),
            'model',
          ),
        ).toBe(
          count(
            sample.messages.map((m) => m.role),
            'assistant',
          ),
        );
        const [first, ...rest] = sample.events.filter((e) => e.event === 'model' || e.event === 'tool');
        if (first)
          expect(schema.sample({ ...sample, events: [{ ...first, event: first.event === 'model' ? 'tool' : 'model' }, ...rest] })).toBe(false);
      }
      const errorSamples = log.samples.filter((s) => s.scores!.outcome!.value === 'error');
      for (const s of errorSamples) expect(s.error?.message).toBeTruthy();
      errors += errorSamples.length;
      const outcome = log.header.results!.scores.find((s) => s.name === 'outcome')!;
      expect(outcome).toMatchObject({ scored_samples: log.samples.length - errorSamples.length, unscored_samples: errorSamples.length });
      // An unknown cost leaves the log's total unknown rather than low.
      const usage = Object.values(log.header.stats.model_usage)[0]!;
      expect('total_cost' in usage).toBe(log.header.eval.model === 'openai/gpt-5');
    }
    expect(errors).toBe(samples.filter((s) => s.outcome === 'error').length);
    expect(errors).toBeGreaterThan(0);
  });

  it('refuses a file where the folder of logs should go, and names a bad entry when a log is read back', async () => {
    const run = storeSampleRun(temp.store);
    const file = join(temp.dir, 'taken');
    writeFileSync(file, '');
    await expect(exportInspectLogs(temp.store, run, file, 'inspect')).rejects.toThrow(UserError);
    const out = join(temp.dir, 'json');
    await exportInspectLogs(temp.store, run, out, 'inspect-json');
    const path = join(out, readdirSync(out)[0]!);
    const doc = JSON.parse(readFileSync(path, 'utf8')) as { samples: { epoch: unknown }[] };
    doc.samples[0]!.epoch = 'first';
    writeFileSync(path, JSON.stringify(doc));
    const log = readInspectLog(path);
    // The bad sample is named and left out; the rest of the log still reads.
    expect(log.bad).toHaveLength(1);
    expect(log.bad[0]!.message).toMatch(/samples\[0\] \(sample [^,]+, epoch first\): field epoch: /);
    expect(log.samples).toHaveLength(doc.samples.length - 1);
  });
});
