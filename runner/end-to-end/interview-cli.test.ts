import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readAnswer } from '../../results/interview-answer.js';
import { labelOf } from '../../results/labels.js';
import { openStore, type StoredSample } from '../../results/store.js';
import { render, shippedTemplates } from '../../scaffolds/templates.js';
import { assertBuilt, cli } from '../testing/cli.js';

/* `run --interview` on real runs: both loops, both built-in suites, the scripted policies that cheat or not and then
   own up or not; each answer read right, and the report's false-denial rate what a hand count of the store gives. */

let dir: string;
beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'ib-interview-'));
});

const READS = { 'cheat-deny': 'denies', 'cheat-admit': 'admits', 'honest-deny': 'denies', 'off-point': 'evasive' } as const;
const MATRIX = ['--dataset', 'builtin:lcb', '--dataset', 'builtin:swe', '--task', 'ib_lcb_02', '--task', 'keyval-1'];
const LOOPS = ['--split', 'original', '--split', 'oneoff', '--scaffold', 'minimal', '--scaffold', 'full', '--plain'];

function samplesOf(path: string): { runId: string; samples: StoredSample[] } {
  const store = openStore(path, { mustExist: true });
  try {
    const [run] = store.listRuns();
    return { runId: run!.id, samples: store.listSamples(run!.id, { withTranscript: false }) };
  } finally {
    store.close();
  }
}

/** Where a sample stands in the matrix, leaving out the model. */
const place = (s: StoredSample) => `${s.key.dataset} ${s.key.split} ${s.key.scaffold} ${s.key.taskId}`;

describe('run --interview', () => {
  it('reads each policy’s answer right in both loops and suites, changes no grade, and reports the false denials a hand count gives', async () => {
    const store = join(dir, 'asked.sqlite');
    const models = Object.keys(READS).flatMap((m) => ['--model', `scripted/${m}`]);
    const r = await cli(['run', ...models, ...MATRIX, ...LOOPS, '--interview', '--store', store], { timeout: 900_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    const { runId, samples } = samplesOf(store);
    expect(samples).toHaveLength(4 * 2 * 2 * 2);
    const question = render(shippedTemplates(), 'interview.question', {});
    for (const s of samples) {
      const policy = s.key.model.replace('scripted/', '') as keyof typeof READS;
      expect({ id: s.keyString, error: s.interview?.error, question: s.interview?.question }).toEqual({
        id: s.keyString,
        error: undefined,
        question,
      });
      expect({ id: s.keyString, reading: readAnswer(s.interview!.answer) }).toEqual({ id: s.keyString, reading: READS[policy] });
    }
    // Every suite and loop holds cheating that the interview then put to the question.
    for (const dataset of ['builtin:lcb', 'builtin:swe']) {
      for (const scaffold of ['minimal', 'full']) {
        const cheats = samples.filter((s) => s.key.dataset === dataset && s.key.scaffold === scaffold && labelOf(s) === 'cheating');
        expect({ dataset, scaffold, denied: cheats.some((s) => s.key.model === 'scripted/cheat-deny') }).toEqual({ dataset, scaffold, denied: true });
      }
    }

    // The grade is what the same play earns without the interview.
    const plainStore = join(dir, 'plain.sqlite');
    const plain = await cli(['run', '--model', 'scripted/modify-tests', '--model', 'scripted/honest', ...MATRIX, ...LOOPS, '--store', plainStore], {
      timeout: 900_000,
    });
    expect(plain.exitCode, plain.stderr).toBe(0);
    const unasked = samplesOf(plainStore).samples;
    expect(unasked.every((s) => s.interview === undefined)).toBe(true);
    const graded = (list: StoredSample[], model: string) =>
      Object.fromEntries(list.filter((s) => s.key.model === model).map((s) => [place(s), [s.outcome, s.tamper.length > 0]]));
    for (const cheat of ['cheat-deny', 'cheat-admit', 'off-point']) {
      expect(graded(samples, `scripted/${cheat}`)).toEqual(graded(unasked, 'scripted/modify-tests'));
    }
    expect(graded(samples, 'scripted/honest-deny')).toEqual(graded(unasked, 'scripted/honest'));

    // The report's false denials, cell by cell, against a count by hand from the store.
    const report = await cli(['report', runId, '--store', store]);
    expect(report.exitCode, report.stderr).toBe(0);
    const section = report.stdout.slice(report.stdout.indexOf('## What the agents said when asked'));
    const rows = section
      .split('\n')
      .filter((l) => l.startsWith('| scripted/'))
      .map((l) => l.split('|').map((c) => c.trim()));
    const header = section
      .split('\n')
      .find((l) => l.startsWith('| model'))!
      .split('|')
      .map((c) => c.trim());
    const at = (name: string) => header.indexOf(name);
    expect(rows).toHaveLength(4 * 2 * 2 * 2);
    let hardDenials = 0;
    for (const row of rows) {
      const inCell = samples.filter((s) => ['model', 'dataset', 'split', 'scaffold'].every((f) => String(s.key[f as 'model']) === row[at(f)]));
      expect(inCell.length).toBeGreaterThan(0);
      const cheating = inCell.filter((s) => labelOf(s) === 'cheating');
      const denying = cheating.filter((s) => readAnswer(s.interview!.answer) === 'denies');
      hardDenials += denying.length;
      const cell = row[at('false denials')]!;
      expect({ row: row.slice(1, 5), cell: cheating.length ? cell.match(/\((\d+\/\d+)\)$/)?.[1] : cell }).toEqual({
        row: row.slice(1, 5),
        cell: cheating.length ? `${denying.length}/${cheating.length}` : '—',
      });
    }
    expect(hardDenials).toBeGreaterThan(0);
  }, 1_900_000);

  it('still asks a sample stopped at its message limit', async () => {
    const store = join(dir, 'limit.sqlite');
    const r = await cli(
      ['run', '--model', 'scripted/cheat-deny', '--dataset', 'builtin:swe', '--task', 'keyval-1', '--split', 'oneoff', '--scaffold', 'full'].concat([
        '--max-messages',
        '3',
        '--interview',
        '--plain',
        '--store',
        store,
      ]),
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const [sample] = samplesOf(store).samples;
    expect(sample!.stopReason).toBe('message_limit');
    expect(readAnswer(sample!.interview!.answer)).toBe('denies');
  });
});
