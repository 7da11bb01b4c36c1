import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replicasReady } from '../testing/replicas.js';
import { readJsonl, sharedDataFile } from '../../core/testing/shared-data.js';
import { openStore, type RunReference, type StoredSample } from '../../results/store.js';
import { checkKnownAnswers } from '../output/known-answers.js';
import { assertBuilt, cli } from '../testing/cli.js';

/**
 * One real SWE-bench Verified row of each repository besides sympy (whose rows `swebench-replicas.test.ts` runs), in
 * the replica of its published instance image built by `scripts/swebench-replicas.sh`. Each repository has its own
 * test runner, log parser and dependencies; through the CLI, as a user runs it, each row's reference run resolves,
 * `scripted/honest` passes its original tests, `mutate --validate` keeps both impossible variants, and
 * `scripted/modify-tests` cheats on one only with full test access. One store per repository: its reference run is
 * made once, by `preflight`, and every later command takes it from there.
 */

interface Repository {
  id: string;
  /** The variant modify-tests is run on. */
  cheatOn: 'oneoff' | 'conflicting';
  /** The one scaffold this repository's samples use (the two alternate across repositories). */
  scaffold: 'minimal' | 'full';
}

const REPOSITORIES: Repository[] = [
  { id: 'django__django-16527', cheatOn: 'conflicting', scaffold: 'minimal' },
  { id: 'pylint-dev__pylint-7277', cheatOn: 'oneoff', scaffold: 'full' },
  { id: 'pytest-dev__pytest-10051', cheatOn: 'conflicting', scaffold: 'full' },
  { id: 'psf__requests-5414', cheatOn: 'oneoff', scaffold: 'minimal' },
  { id: 'mwaskom__seaborn-3069', cheatOn: 'oneoff', scaffold: 'minimal' },
  { id: 'pydata__xarray-4629', cheatOn: 'conflicting', scaffold: 'full' },
];

const verified = sharedDataFile('swebench/verified.jsonl');
const ready = await replicasReady(REPOSITORIES.map((r) => r.id));

/** A repository's commands can take minutes each on two cores (pylint's test file alone runs for about one). */
const STEP_MS = 1_800_000;
const CORES = availableParallelism();

let dir: string;

beforeAll(async () => {
  if (!ready) return;
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'ib-repos-'));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs one step, saying how long it took and on how many cores: the figures a CI budget is set from. */
async function timed<T>(what: string, step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await step();
  } finally {
    console.log(`${what}: ${((performance.now() - started) / 1000).toFixed(1)} s on ${CORES} cores`);
  }
}

function runIdOf(stderr: string): string {
  const m = /starting run (\S+)/.exec(stderr);
  if (!m) throw new Error(`no run started:\n${stderr}`);
  return m[1]!;
}

function samplesOf(store: string, runId: string): StoredSample[] {
  const s = openStore(store, { mustExist: true });
  try {
    return [...s.iterateSamples(runId, { withTranscript: false })];
  } finally {
    s.close();
  }
}

function referencesOf(store: string, runId: string): RunReference[] {
  const s = openStore(store, { mustExist: true });
  try {
    return s.runReferences(runId);
  } finally {
    s.close();
  }
}

/** The reference runs a store keeps, oldest first. */
function keptReferenceRuns(store: string): { key: string; taskId: string; limits: { cpus: number; memoryMb: number } }[] {
  const db = new Database(store, { readonly: true });
  try {
    return (
      db.prepare('SELECT key, task_id, limits FROM reference_runs ORDER BY made_at').all() as { key: string; task_id: string; limits: string }[]
    ).map((r) => ({ key: r.key, taskId: r.task_id, limits: JSON.parse(r.limits) as { cpus: number; memoryMb: number } }));
  } finally {
    db.close();
  }
}

const cell = (s: StoredSample) => `${s.key.model.replace('scripted/', '')} ${s.key.split} ${s.key.scaffold}/${s.key.access}: ${s.outcome}`;

/** The row a command takes, the one store its commands share, and the variants `mutate --validate` wrote. */
function repositoryFiles(id: string) {
  return {
    rows: join(dir, `${id}.jsonl`),
    store: join(dir, `${id}.sqlite`),
    variants: (type: 'oneoff' | 'conflicting') => join(dir, `${id}.${type}.jsonl`),
  };
}

for (const { id, cheatOn, scaffold } of REPOSITORIES) {
  describe.runIf(ready)(`${id} in the replica of its published image`, () => {
    let files: ReturnType<typeof repositoryFiles>;
    let repo: string;

    beforeAll(async () => {
      files = repositoryFiles(id);
      const row = readJsonl(verified!).find((r) => r.instance_id === id);
      if (!row) throw new Error(`${id} is not in ${verified}`);
      repo = row.repo as string;
      await writeFile(files.rows, `${JSON.stringify(row)}\n`);
    });

    it(
      'preflight: the reference run resolves under the default limits and is kept in the store',
      async () => {
        const r = await timed(`${id} preflight`, () => cli(['preflight', '--dataset', files.rows, '--store', files.store], { timeout: STEP_MS }));
        expect(r.exitCode, r.stderr + r.stdout).toBe(0);
        expect(r.stderr).toContain('under 2 CPUs, 4096 MiB');
        expect(r.stderr).toMatch(/^ {2}1 of 1 resolve$/m);
        // repository, tasks, resolve, environment-broken, graded tests skipped
        expect(r.stdout).toMatch(new RegExp(`^${repo.replace(/[.]/g, '\\.')} +1 +1 +0 +\\d+$`, 'm'));
        expect(r.stdout).not.toContain('environment-broken (a run leaves them out)');
        expect(keptReferenceRuns(files.store)).toEqual([{ key: expect.any(String), taskId: id, limits: { cpus: 2, memoryMb: 4096 } }]);
      },
      STEP_MS,
    );

    it(
      `honest passes the original tests (${scaffold} scaffold), with the reference run taken from the store`,
      async () => {
        const r = await timed(`${id} run honest original`, () =>
          cli(
            [
              'run',
              '--model',
              'scripted/honest',
              '--dataset',
              files.rows,
              '--split',
              'original',
              '--scaffold',
              scaffold,
              '--access',
              'full',
              '--limit',
              '1',
              '--max-attempts',
              '1',
              '--store',
              files.store,
              '--plain',
            ],
            { timeout: STEP_MS },
          ),
        );
        expect(r.exitCode, r.stderr + r.stdout).toBe(0);
        expect(r.stderr).toMatch(/^ {2}1 of 1 resolve \(1 kept from earlier runs\)$/m);
        const runId = runIdOf(r.stderr);
        const [kept] = keptReferenceRuns(files.store);
        expect(referencesOf(files.store, runId)).toEqual([
          expect.objectContaining({ taskId: id, referenceKey: kept?.key, resolved: true, reason: 'resolved', limits: '2 CPUs, 4096 MiB' }),
        ]);
        expect(keptReferenceRuns(files.store)).toHaveLength(1);
        const samples = samplesOf(files.store, runId);
        expect(samples.map((s) => `${cell(s)}${s.error ? ` ${s.error}` : ''}`)).toEqual([`honest original ${scaffold}/full: passed`]);
      },
      STEP_MS,
    );

    it(
      'mutate --validate keeps a one-off and a conflicting variant: the gold patch fails each at its target, an empty patch fails it too, and its run on the original tests is the stored reference run',
      async () => {
        for (const type of ['oneoff', 'conflicting'] as const) {
          const out = files.variants(type);
          const r = await timed(`${id} mutate --validate --type ${type}`, () =>
            cli(['mutate', '--dataset', files.rows, '--type', type, '--validate', '--store', files.store, '--out', out], { timeout: STEP_MS }),
          );
          // The gold patch's run on the original tests is the reference run preflight kept: not made again.
          expect.soft(keptReferenceRuns(files.store), type).toHaveLength(1);
          // Soft: a type that fails does not hide what the other one does.
          expect.soft(r.exitCode, `${type}:\n${r.stderr}${r.stdout}`).toBe(0);
          expect
            .soft(r.stdout)
            .toMatch(
              new RegExp(
                `^kept ${id}( \\(candidate \\d+, [^)]+\\))?: gold patch on the original tests: passed; gold patch on the variant: failed, target .+ (FAILED|ERROR); empty patch on the variant: failed$`,
                'm',
              ),
            );
          expect.soft(r.stdout).toContain(`${type}: wrote 1 of 1 tasks`);
          const written = existsSync(out)
            ? (await readFile(out, 'utf8'))
                .split('\n')
                .filter((l) => l.trim() !== '')
                .map((l) => JSON.parse(l) as { instance_id: string; impossible_type: string })
            : [];
          expect.soft(written.map((w) => [w.instance_id, w.impossible_type])).toEqual([[id, type]]);
        }
      },
      2 * STEP_MS,
    );

    it(
      `modify-tests cheats on the ${cheatOn} variant only with full test access, with the reference run taken from the store`,
      async () => {
        const variants = files.variants(cheatOn);
        if (!existsSync(variants)) throw new Error(`no ${cheatOn} variant to run: mutate --validate (the test above) wrote none`);
        const r = await timed(`${id} run modify-tests ${cheatOn}`, () =>
          cli(
            [
              'run',
              '--model',
              'scripted/modify-tests',
              '--dataset',
              variants,
              '--split',
              cheatOn,
              '--scaffold',
              scaffold,
              '--access',
              'full',
              '--access',
              'readonly',
              '--limit',
              '1',
              '--max-attempts',
              '1',
              // modify-tests finds the check to remove in its own run of the test file, which must end within the tool
              // limit: pylint's takes about a minute on two cores, past the default 60 s. Grading keeps its 15-minute
              // floor, so the reference run is still the one preflight made.
              '--tool-timeout',
              '600',
              '--store',
              files.store,
              '--plain',
            ],
            { timeout: STEP_MS },
          ),
        );
        expect(r.exitCode, r.stderr + r.stdout).toBe(0);
        // The variant's row carries the original tests and the gold patch: its reference run is the original row's.
        expect(r.stderr).toMatch(/^ {2}1 of 1 resolve \(1 kept from earlier runs\)$/m);
        expect(keptReferenceRuns(files.store)).toHaveLength(1);
        const samples = samplesOf(files.store, runIdOf(r.stderr));
        expect(samples.filter((s) => s.outcome === 'error').map((s) => `${cell(s)} ${s.error}`)).toEqual([]);
        expect(samples.map(cell).sort()).toEqual([
          `modify-tests ${cheatOn} ${scaffold}/full: passed`,
          `modify-tests ${cheatOn} ${scaffold}/readonly: failed`,
        ]);
        const checks = checkKnownAnswers(samples, () => true).filter((c) => c.n > 0);
        expect(checks.filter((c) => c.broken.length > 0)).toEqual([]);
        expect(checks.map((c) => c.claim)).toContain('modify-tests cheats on impossible variants only with full test access');
        // The cheat is an edit of the test files, and the diff that shows it is the test diff.
        const cheat = samples.find((s) => s.key.access === 'full')!;
        expect(cheat.testDiff).toMatch(/^diff --git a\//m);
      },
      STEP_MS,
    );

    if (id === 'pylint-dev__pylint-7277') {
      it(
        'a --cpus 1 preflight names the graded test one CPU skips, says --cpus 1 made the difference, and exits 3',
        async () => {
          const r = await timed(`${id} preflight --cpus 1`, () =>
            cli(['preflight', '--dataset', files.rows, '--cpus', '1', '--store', files.store], { timeout: 2 * STEP_MS }),
          );
          expect(r.exitCode, r.stderr + r.stdout).toBe(3);
          expect(r.stderr).toContain('under 1 CPU, 4096 MiB');
          expect(r.stdout).toMatch(/^pylint-dev\/pylint +1 +0 +1 +\d+$/m);
          expect(r.stdout).toMatch(
            /^ {2}pylint-dev__pylint-7277 \(1 CPU, 4096 MiB\): the gold patch does not resolve it here: .*tests\/test_self\.py::TestRunTC::test_jobs_score/m,
          );
          expect(r.stdout).toMatch(/^ {4}with that limit lifted it resolves: --cpus 1 makes the difference$/m);
          // -rA names no skipped test: the skip is read from pytest's summary of the test's file.
          expect(r.stdout).toMatch(
            /^ {6}tests\/test_self\.py::TestRunTC::test_jobs_score did not run \(pytest skipped 1 test\(s\) of tests\/test_self\.py without naming them: Need 2 or more cores.*\) under --cpus 1$/m,
          );
          expect(keptReferenceRuns(files.store)).toContainEqual(expect.objectContaining({ taskId: id, limits: { cpus: 1, memoryMb: 4096 } }));
        },
        2 * STEP_MS,
      );
    }
  });
}

/** A row whose conflicting variant repeats a parametrize case under an id of its own, which the variant adds to FAIL_TO_PASS. */
const ADDING_ID = 'pydata__xarray-6599';
const addingReady = ready && (await replicasReady([ADDING_ID]));

describe.runIf(addingReady)(`${ADDING_ID}: a conflicting variant that adds a graded case`, () => {
  it(
    'validates against the row’s reference run, whose tests lack the added case, and its samples share that run',
    async () => {
      const files = repositoryFiles(ADDING_ID);
      await writeFile(files.rows, `${JSON.stringify(readJsonl(verified!).find((r) => r.instance_id === ADDING_ID))}\n`);
      const out = files.variants('conflicting');
      const made = await timed(`${ADDING_ID} mutate --validate --type conflicting`, () =>
        cli(['mutate', '--dataset', files.rows, '--type', 'conflicting', '--validate', '--store', files.store, '--out', out], { timeout: STEP_MS }),
      );
      expect(made.exitCode, made.stderr + made.stdout).toBe(0);
      expect(made.stdout).toMatch(
        /^kept pydata__xarray-6599: gold patch on the original tests: passed; gold patch on the variant: failed, target \S+-conflicting-\S+ FAILED/m,
      );
      const [row] = readJsonl<{ FAIL_TO_PASS: string[]; mutation: { addedTests?: string[] } }>(out);
      expect(row!.mutation.addedTests).toEqual([expect.stringMatching(/-conflicting-/)]);
      expect(row!.FAIL_TO_PASS).toEqual(expect.arrayContaining(row!.mutation.addedTests!));
      const r = await timed(`${ADDING_ID} run honest conflicting`, () =>
        cli(
          ['run', '--model', 'scripted/honest', '--dataset', out, '--split', 'conflicting', '--max-attempts', '1', '--store', files.store, '--plain'],
          {
            timeout: STEP_MS,
          },
        ),
      );
      expect(r.exitCode, r.stderr + r.stdout).toBe(0);
      expect(r.stderr).toMatch(/^ {2}1 of 1 resolve \(1 kept from earlier runs\)$/m);
      expect(keptReferenceRuns(files.store)).toHaveLength(1);
      expect(samplesOf(files.store, runIdOf(r.stderr)).map(cell)).toEqual(['honest conflicting full/full: failed']);
    },
    2 * STEP_MS,
  );
});
