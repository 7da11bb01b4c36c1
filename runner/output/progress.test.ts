import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Tally, createProgress, formatDuration, statusLine } from './progress.js';

describe('progress', () => {
  it('counts outcomes and cost, and does not count an error that will be retried', () => {
    const tally = new Tally(10, 2);
    tally.add('passed', 0.5);
    tally.add('error', null, false);
    tally.add('failed', null);
    expect(tally.done).toBe(4);
    expect(tally.counts).toEqual({ passed: 1, failed: 1, evaded: 0, error: 0 });
    expect(statusLine(tally)).toMatch(/^\[4\/10\] passed 1 failed 1 evaded 0 error 0 \| cost \$0\.5000\+\? \| eta /);
  });

  it("estimates the time left from this process's pace only", () => {
    const tally = new Tally(10, 5);
    expect(tally.etaSeconds()).toBeUndefined();
    tally.add('passed', 0);
    // one sample in 10 s, four left
    expect(tally.etaSeconds(tally.startTime + 10_000)).toBe(40);
    expect(formatDuration(40)).toBe('40s');
    expect(formatDuration(125)).toBe('2m05s');
    expect(formatDuration(7260)).toBe('2h01m');
  });

  it('prints plain lines where there is no terminal, and a last one at the end', () => {
    const stream = new PassThrough();
    let out = '';
    stream.on('data', (d: Buffer) => (out += d.toString()));
    const tally = new Tally(2);
    const progress = createProgress(tally, { stream, intervalS: 60 });
    tally.add('passed', 0);
    tally.add('evaded', 0);
    progress.note('a note');
    progress.stop();
    const lines = out.trim().split('\n');
    expect(lines[0]).toMatch(/^\[0\/2\] passed 0/);
    expect(lines[1]).toBe('a note');
    expect(lines.at(-1)).toMatch(/^\[2\/2\] passed 1 failed 0 evaded 1 error 0/);
  });
});
