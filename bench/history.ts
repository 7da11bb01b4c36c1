/**
 * What a history image saves a SWE sample whose prepared image holds a long history, as SWE-bench images do (a clone
 * of the whole repository, reset to the base commit, later commits still in its packs).
 *
 *   npm run bench:history [-- --commits N --samples N]
 *
 * Makes such an image from a built-in SWE task: N commits of a thousand-file package on top of its base commit (the
 * task's new base), then N/10 later ones, reset to the base with the harness's own commit on top. Then runs the
 * honest policy on it, in every scaffold and access mode, one sample at a time: from the prepared image (each sample
 * hides the history itself) and from its history image (hidden once, before the first sample). Baseline: one bare
 * `docker run` of the task's tests in the prepared image.
 */
import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import pino from 'pino';
import { simpleGit } from 'simple-git';
import type { AccessMode, ScaffoldName } from '../core/record.js';
import { sandboxBackend } from '../docker/backends.js';
import { PYTHON_IMAGE } from '../docker/image-names.js';
import { historyImages } from '../runner/orchestration/history-images.js';
import { runAgent } from '../scaffolds/index.js';
import { createModelClient } from '../models/index.js';
import { resolvePrompt } from '../scaffolds/prompts.js';
import { startModelServer } from '../simulated/server/index.js';
import { setupSweRepo, sweTestSpec, TESTBED } from '../tasks/env/swe.js';
import { loadBuiltinSwe } from '../tasks/index.js';
import type { SweTask } from '../tasks/task.js';
import { median } from './stats.js';

const { values } = parseArgs({
  options: {
    commits: { type: 'string', default: '20000' },
    samples: { type: 'string', default: '1' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(
    [
      'usage: npm run bench:history -- [options]',
      '  --commits N   commits of history before the base commit (default 20000; N/10 more come after it)',
      '  --samples N   samples per scaffold and access mode, from each image (default 1)',
    ].join('\n'),
  );
  process.exit(0);
}
const commits = Number(values.commits);
const samples = Number(values.samples);
if (!(Number.isInteger(commits) && commits > 0 && Number.isInteger(samples) && samples > 0)) {
  console.error('bench:history: --commits and --samples take positive integers');
  process.exit(2);
}

const FILES = 1000;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const runId = `bench-history-${process.pid}`;
const backend = sandboxBackend();

/** A fast-import stream, one commit at a time: `count` commits on `from`, each changing three files of a package, to `ref`. */
function* commitStream(from: string, ref: string, count: number): Generator<string> {
  const random = () => randomInt(2 ** 30);
  const files: string[] = Array.from({ length: FILES }, () =>
    Array.from({ length: 60 }, (_, j) => `def f${j}(x):\n    return x + ${random()}\n`).join(''),
  );
  for (let c = 0; c < count; c++) {
    const out = [`commit ${ref}`, `committer Bench <bench@impossiblebench.invalid> ${1_500_000_000 + c * 600} +0000`, 'data 6', 'change'];
    if (c === 0) out.push(`from ${from}`);
    for (let k = 0; k < (c === 0 ? FILES : 3); k++) {
      const i = c === 0 ? k : random() % FILES;
      const lines = files[i]!.split('\n');
      lines[(random() % 60) * 2 + 1] = `    return x * ${random()}`;
      files[i] = lines.join('\n');
      out.push(`M 100644 inline history/m${i % 10}/f${i}.py`, `data ${Buffer.byteLength(files[i]!)}`, files[i]!);
    }
    yield `${out.join('\n')}\n\n`;
  }
}

/** The task on a copy of its repository with the long history: returns it with its new base commit, and the later tip. */
async function longHistory(task: SweTask, dir: string): Promise<{ task: SweTask; later: string }> {
  if (task.repoSource?.type !== 'git') throw new Error(`${task.id} has no local repository`);
  const repo = join(dir, 'repo');
  await simpleGit().clone(task.repoSource.path, repo);
  const git = simpleGit(repo);
  const from = (await git.revparse([`${task.baseCommit}^{commit}`])).trim();
  await execa('git', ['-C', repo, 'fast-import', '--quiet'], { stdin: commitStream(from, 'refs/heads/bench-base', commits) });
  const base = (await git.revparse(['bench-base'])).trim();
  await execa('git', ['-C', repo, 'fast-import', '--quiet'], { stdin: commitStream(base, 'refs/heads/bench-later', Math.ceil(commits / 10)) });
  return { task: { ...task, baseCommit: base, repoSource: { type: 'git', path: repo } }, later: (await git.revparse(['bench-later'])).trim() };
}

/** The prepared image: the whole history in /testbed's packs, reset to the base with the harness's commit on top. */
async function prepare(task: SweTask, later: string, image: string): Promise<number> {
  const sandbox = await backend.create({ image: PYTHON_IMAGE, runId, sampleId: 'prepare' });
  try {
    // The later tip brings every commit in; then, as the SWE-bench harness leaves its images: reset to the base.
    await setupSweRepo(sandbox, { ...task, baseCommit: later }, { applyTestPatch: false });
    const reset = await sandbox.exec(
      [
        'sh',
        '-ec',
        [
          'g() { git -c safe.directory=* -c user.name=u -c user.email=u@x "$@"; }',
          'g tag later HEAD',
          `g reset -q --hard ${task.baseCommit}`,
          'g commit -q --allow-empty -m SWE-bench',
          'g count-objects -v | sed -n "s/^in-pack: //p"',
        ].join('\n'),
      ],
      { cwd: TESTBED },
    );
    if (reset.exitCode !== 0) throw new Error(`could not reset the prepared repository: ${reset.stderr}`);
    await backend.images.derive!(sandbox, image, {});
    return Number(reset.stdout.trim());
  } finally {
    await sandbox.destroy();
  }
}

/** One honest sample's wall time, from `image`. */
async function sample(
  server: Awaited<ReturnType<typeof startModelServer>>,
  task: SweTask,
  image: string,
  scaffold: ScaffoldName,
  access: AccessMode,
) {
  const t = performance.now();
  const sandbox = await backend.create({ image, runId, sampleId: `${scaffold}-${access}` });
  const model = createModelClient('scripted/honest', { server, context: { task, scaffold } });
  try {
    const r = await runAgent({
      task,
      scaffold,
      access,
      instructions: resolvePrompt('D'),
      allowFlag: false,
      maxAttempts: 1,
      model,
      sandbox,
      limits: { maxMessages: 40, toolTimeoutMs: 600_000 },
      signal: new AbortController().signal,
      log: pino({ level: 'silent' }),
    });
    if (r.outcome !== 'passed') throw new Error(`${scaffold} ${access}: ${r.outcome} ${r.error ?? ''} ${r.gradingLog ?? ''}`);
  } finally {
    await model.close?.();
    await sandbox.destroy();
  }
  return performance.now() - t;
}

const dir = await mkdtemp(join(tmpdir(), 'ib-bench-history-'));
const server = await startModelServer();
const prepared = `impossiblebench/bench-prepared:${process.pid}`;
const historyCache = historyImages(backend);
try {
  if (!backend.images.derive) throw new Error(`the ${backend.name} backend cannot save a sandbox as an image`);
  const keyval = (await loadBuiltinSwe()).find((t) => t.id.startsWith('keyval'));
  if (!keyval) throw new Error('builtin:swe has no keyval project');
  console.error(`making a repository with ${commits} + ${Math.ceil(commits / 10)} commits...`);
  const { task: onRepo, later } = await longHistory(keyval, dir);
  const objects = await prepare(onRepo, later, prepared);
  const task: SweTask = { ...onRepo, repoSource: { type: 'image', image: prepared } };

  const bare: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await execa('docker', ['run', '--rm', '--network', 'none', prepared, 'sh', '-c', `cd ${TESTBED} && ${sweTestSpec(task).command}`], {
      reject: false,
    });
    bare.push(performance.now() - t);
  }
  const bareMs = median(bare);

  const t = performance.now();
  const historyImage = await historyCache.imageFor(task, { image: prepared, runId, sampleId: 'history' });
  const makeMs = performance.now() - t;
  if (historyImage === prepared) throw new Error('the history image could not be made');

  const walls: Record<'prepared' | 'history', number[]> = { prepared: [], history: [] };
  for (let i = 0; i < samples; i++) {
    for (const scaffold of ['minimal', 'full'] as const) {
      for (const access of ['full', 'readonly', 'hidden'] as const) {
        walls.prepared.push(await sample(server, task, prepared, scaffold, access));
        walls.history.push(await sample(server, task, historyImage, scaffold, access));
      }
    }
  }
  const each = median(walls.prepared);
  const once = median(walls.history);
  console.log(
    [
      `repository: ${commits} commits before the base, ${Math.ceil(commits / 10)} after it; ${objects} objects in its packs (${availableParallelism()} cores, 1 CPU per sandbox)`,
      `baseline: one bare \`docker run\` of the task's tests in the prepared image: ${seconds(bareMs)} (median of 3)`,
      `honest sample, every scaffold and access mode, one at a time (median of ${walls.prepared.length} each):`,
      `  from the prepared image, hiding the history itself: ${seconds(each)} = ${(each / bareMs).toFixed(2)}× the baseline`,
      `  from the history image:                             ${seconds(once)} = ${(once / bareMs).toFixed(2)}× the baseline`,
      `  a sample from the history image takes ${(once / each).toFixed(2)}× the time; the image is made once: ${seconds(makeMs)} = ${(makeMs / bareMs).toFixed(2)}× the baseline, ${
        each > once ? `repaid after ${Math.ceil(makeMs / (each - once))} samples` : 'not repaid at this size'
      }`,
    ].join('\n'),
  );
} finally {
  await historyCache.removeAll();
  await backend.images.removeDerived?.([prepared]);
  await backend.cleanup({ runId });
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
