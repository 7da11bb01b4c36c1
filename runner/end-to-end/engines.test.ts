import { spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPermanentError, stopsRun } from '../../docker/errors.js';
import { DockerHostSchema } from '../../docker/hosts.js';
import { PYTHON_IMAGE } from '../../docker/image-names.js';
import {
  ENGINE_TIMEOUT_ENV,
  EngineLostError,
  dockerEnginePool,
  firstEngineUrl,
  startSecondEngine,
  type SecondEngine,
} from '../../docker/testing/second-engine.js';
import { startTestRegistry } from '../../docker/testing/registry.js';
import { commitSandbox, removeImage } from '../../docker/testing.js';
import { sandboxBackend } from '../../docker/backends.js';
import { loadBuiltinSwe } from '../../tasks/index.js';
import { TESTBED, setupSweRepo } from '../../tasks/env/swe.js';
import type { PreparedImageTask } from '../../tasks/task.js';
import { historyImageName, historyImages } from '../orchestration/history-images.js';
import { openStore } from '../../results/store.js';
import { launchRun } from '../orchestration/launch.js';
import { realWiring } from '../wiring/real-wiring.js';
import { assertBuilt, cli } from '../testing/cli.js';
import { minimalSweRow } from '../testing/swe-rows.js';
import { swebenchImage } from '../../tasks/images.js';

/**
 * Several engines as one pool, with a second dockerd of the test's own: placement, images and cleanup across both, a
 * run going on when one engine dies mid-run, and a pool with none left. One file, in this order, so that one second
 * engine is up at a time (each test after the first finds the engine as the one before left it).
 */

let second: SecondEngine;
let first: string;
/** Whether the host has the first engine's default bridge, which a second engine must leave alone. */
const hasDocker0 = () => spawnSync('ip', ['link', 'show', 'docker0'], { stdio: 'ignore' }).status === 0;
let hadDocker0: boolean;

beforeAll(async () => {
  first = await firstEngineUrl();
  hadDocker0 = hasDocker0();
  second = await startSecondEngine();
}, 120_000);

afterAll(async () => {
  await second?.stop();
}, 120_000);

const hosts = () => [DockerHostSchema.parse({ url: first, capacity: 2 }), DockerHostSchema.parse({ url: second.url, capacity: 2 })];

describe('several Docker engines as one pool', () => {
  it('places sandboxes only where their image is, then on both engines, least loaded first, and lists and removes them on both', async () => {
    expect(hasDocker0()).toBe(hadDocker0);
    const held = dockerEnginePool(hosts());
    await held.connect();
    // On one engine only: not missing for the pool, whose doctor warns where it lacks.
    expect(await held.placement!.missingWhere([PYTHON_IMAGE])).toEqual([{ where: second.url, missing: [PYTHON_IMAGE] }]);
    expect(await held.images.missing([PYTHON_IMAGE])).toEqual([]);
    assertBuilt();
    const doctor = await cli(['doctor', '--docker-host', first, '--docker-host', second.url]);
    expect(doctor.stdout).toMatch(
      new RegExp(
        `warn  image ${PYTHON_IMAGE.replace(/[.]/g, '\\.')}: present \\(\\d+ MB\\), but not on ${second.url}: its samples run on the other engines only\n      fix: impossiblebench images build, with the same --docker-host flags`,
      ),
    );
    expect(doctor.stdout).not.toContain(`FAIL  image ${PYTHON_IMAGE}`);

    // The first engine is full and the second lacks the image: a third sandbox waits for a slot on the first.
    const heldRun = `pool-held-${Date.now()}`;
    const two = await Promise.all([0, 1].map((i) => held.create({ image: PYTHON_IMAGE, runId: heldRun, sampleId: `h${i}` })));
    let thirdPlaced = false;
    const third = held.create({ image: PYTHON_IMAGE, runId: heldRun, sampleId: 'h2' }).then((box) => {
      thirdPlaced = true;
      return box;
    });
    await delay(2_000);
    expect(thirdPlaced).toBe(false);
    await two[0]!.destroy();
    const box3 = await third;
    expect((await held.list({ runId: heldRun })).map((s) => s.engine)).toEqual([first, first]);
    expect((await box3.exec(['true'])).exitCode).toBe(0);
    for (const b of [two[1]!, box3]) await b.destroy();

    second.load(PYTHON_IMAGE);
    const pool = dockerEnginePool(hosts());
    expect(await pool.placement!.missingWhere([PYTHON_IMAGE])).toEqual([]);

    const checks = await pool.probe();
    expect(checks.filter((c) => c.text.includes(second.url) && c.text.includes('container engine')).map((c) => c.mark)).toEqual(['ok']);
    expect(checks.filter((c) => c.text.includes(`[${first},`) && c.text.includes('container engine')).map((c) => c.mark)).toEqual(['ok']);

    const runId = `pool-${Date.now()}`;
    const boxes = await Promise.all([0, 1, 2, 3].map((i) => pool.create({ image: PYTHON_IMAGE, runId, sampleId: `s${i}` })));
    const listed = await pool.list({ runId });
    expect(listed.map((s) => s.engine).sort()).toEqual([first, first, second.url, second.url].sort());
    const out = await boxes[3]!.exec(['python3', '-c', 'print(6 * 7)']);
    expect(out.stdout.trim()).toBe('42');

    // Both engines are full: a fifth sandbox waits for a slot and gets the one freed.
    const fifth = pool.create({ image: PYTHON_IMAGE, runId, sampleId: 's4' });
    await boxes[0]!.destroy();
    const box = await fifth;
    expect((await pool.list({ runId })).length).toBe(4);

    const removed = await pool.cleanup({ runId });
    expect(removed.removed.length).toBe(4);
    expect(await pool.list({ runId })).toEqual([]);
    for (const b of [...boxes.slice(1), box]) await b.destroy().catch(() => undefined);
  }, 120_000);

  it('`images pull` puts each image onto one engine, spread by capacity and what each holds, and then counts none missing', async () => {
    assertBuilt();
    const registry = await startTestRegistry();
    const namespace = `${registry.host}/spread`;
    const ids = ['demo__demo-1', 'demo__demo-2', 'demo__demo-3'];
    const images = ids.map((id) => swebenchImage(id, { namespace }));
    const rows = join(await mkdtemp(join(tmpdir(), 'ib-engines-pull-')), 'rows.jsonl');
    await writeFile(rows, `${ids.map(minimalSweRow).join('\n')}\n`);
    const flags = ['--dataset', rows, '--image-namespace', namespace, '--docker-host', `${first}=2`, '--docker-host', `${second.url}=1`, '--plain'];
    const pool = dockerEnginePool([DockerHostSchema.parse({ url: first, capacity: 2 }), DockerHostSchema.parse({ url: second.url, capacity: 1 })]);
    try {
      const pull = await cli(['images', 'pull', ...flags, '--concurrency', '1']);
      expect(pull.exitCode, pull.stdout + pull.stderr).toBe(0);
      expect(pull.stdout).toContain('3 images needed: 0 present, 3 to get');
      // Two onto the engine of capacity 2, one onto the other, in turn; each lacks what the other holds.
      const onto = (out: string) => images.map((image) => new RegExp(`pulled ${image.replaceAll('.', '\\.')} onto (\\S+) `).exec(out)?.[1]);
      expect(onto(pull.stderr)).toEqual([first, second.url, first]);
      const lacking = new Map((await pool.placement!.missingWhere(images)).map((w) => [w.where, w.missing]));
      expect(lacking.get(first)).toEqual([images[1]]);
      expect(lacking.get(second.url)).toEqual([images[0], images[2]]);
      expect(await pool.images.missing(images)).toEqual([]);
      const again = await cli(['images', 'pull', ...flags, '--dry-run']);
      expect(again.stdout).toContain('3 images needed: 3 present, 0 to get');

      // The first engine holds one of them already: with equal capacities the next goes onto the second.
      spawnSync('docker', ['-H', second.url, 'rmi', '-f', images[1]!], { stdio: 'ignore' });
      await removeImage(images[2]!);
      const equal = ['--dataset', rows, '--image-namespace', namespace, '--docker-host', first, '--docker-host', second.url, '--plain'];
      const spread = await cli(['images', 'pull', ...equal, '--concurrency', '1']);
      expect(spread.stdout, spread.stderr).toContain('3 images needed: 1 present, 2 to get');
      expect(onto(spread.stderr)).toEqual([undefined, second.url, first]);
    } finally {
      for (const image of images) await removeImage(image);
      spawnSync('docker', ['-H', second.url, 'rmi', '-f', ...images], { stdio: 'ignore' });
      await registry.close();
    }
  }, 120_000);

  it('validates variants with `mutate --validate` on the engines --docker-host names, never the default one', async () => {
    assertBuilt();
    const out = join(await mkdtemp(join(tmpdir(), 'ib-engines-mutate-')), 'oneoff.jsonl');
    // The default engine does not answer: only sandboxes on the named engine can validate anything.
    const args = [
      'mutate',
      '--dataset',
      'builtin:lcb',
      '--type',
      'oneoff',
      '--validate',
      '--limit',
      '2',
      '--out',
      out,
      '--docker-host',
      `${second.url}=2`,
    ];
    const r = await cli(args, { env: { DOCKER_HOST: 'unix:///nonexistent/docker.sock' } });
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/^oneoff: wrote 2 of 2 tasks to .*validated in/m);
    const flagless = await cli(args.slice(0, -2), { env: { DOCKER_HOST: 'unix:///nonexistent/docker.sock' } });
    expect(flagless.exitCode).not.toBe(0);
  }, 120_000);
});

describe('a wedged engine', () => {
  it('fails each call it does not answer within the deadline, as an infrastructure error, and is taken out of the pool', async () => {
    const pool = dockerEnginePool([DockerHostSchema.parse({ url: second.url, capacity: 2 })]);
    await pool.connect();
    if ((await pool.images.missing([PYTHON_IMAGE])).length > 0) second.load(PYTHON_IMAGE);
    const runId = `wedged-${Date.now()}`;
    const box = await pool.create({ image: PYTHON_IMAGE, runId, sampleId: 'running' });
    expect((await box.exec(['echo', 'up'])).stdout).toBe('up\n');
    const before = process.env[ENGINE_TIMEOUT_ENV];
    process.env[ENGINE_TIMEOUT_ENV] = '2';
    // Stopped, it takes connections and answers nothing: without a deadline every call below would wait for ever.
    const thaw = await second.freeze();
    try {
      await expect(pool.list()).rejects.toThrow(`${second.url}: the container engine did not answer in 2 s (list containers)`);
      // A command that runs out of time cannot be stopped: an infrastructure error, not a timed-out command.
      const ran = await box.exec(['sleep', '60'], { timeoutMs: 1_000 }).then(
        (r) => r,
        (err: unknown) => err,
      );
      expect(ran).toBeInstanceOf(EngineLostError);
      // (A pool of its own: the one above has taken the engine out.)
      const another = dockerEnginePool([DockerHostSchema.parse({ url: second.url, capacity: 1 })]);
      const created = await another.create({ image: PYTHON_IMAGE, runId, sampleId: 'a' }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(created).toBeInstanceOf(EngineLostError);
      expect(stopsRun(created)).toBe(false);
    } finally {
      thaw();
      await box.destroy();
      if (before === undefined) delete process.env[ENGINE_TIMEOUT_ENV];
      else process.env[ENGINE_TIMEOUT_ENV] = before;
    }
    // Thawed, it answers again (the next test runs on it), and may still carry out the create it took while frozen:
    // what this test left there goes, so the next test finds only its own sandboxes.
    const thawed = dockerEnginePool([DockerHostSchema.parse({ url: second.url, capacity: 1 })]);
    await thawed.connect();
    await delay(1_000);
    await thawed.cleanup({ runId });
    expect(await thawed.list({ runId })).toEqual([]);
  }, 60_000);
});

describe('history images on a pool', () => {
  it('are made on the engine the history sandbox ran on, its samples go there, and start from the task image once it is gone', async () => {
    const task = (await loadBuiltinSwe()).find((t) => t.id.startsWith('keyval'))!;
    const image = `impossiblebench/test-pool-prepared:${process.pid}`;
    const runId = `pool-history-${Date.now()}`;
    const maker = await sandboxBackend().create({ image: PYTHON_IMAGE, runId, sampleId: 'prepare' });
    try {
      await setupSweRepo(maker, task, { applyTestPatch: false });
      await commitSandbox(maker, image);
    } finally {
      await maker.destroy();
    }
    second.load(image);
    const prepared: PreparedImageTask = { ...task, repoSource: { type: 'image', image } };
    const name = historyImageName(runId, prepared);
    const pool = dockerEnginePool([DockerHostSchema.parse({ url: first, capacity: 1 }), DockerHostSchema.parse({ url: second.url, capacity: 1 })]);
    const history = historyImages(pool);
    const before = process.env[ENGINE_TIMEOUT_ENV];
    let thaw = () => {};
    try {
      // The first engine's one slot is taken: the history image is made on the second, and is there alone.
      const blocker = await pool.create({ image, runId, sampleId: 'blocker' });
      expect(await history.imageFor(prepared, { image, runId, sampleId: 's1' })).toBe(name);
      await blocker.destroy();
      expect(await pool.placement!.missingWhere([name])).toEqual([{ where: first, missing: [name] }]);
      // Its samples go where it is, though the first engine is free.
      const onSecond = await pool.create({ image: name, runId, sampleId: 's1' });
      expect((await pool.list({ runId })).map((s) => s.engine)).toEqual([second.url]);

      // The second engine stops answering: a call that fails takes it out of the pool.
      process.env[ENGINE_TIMEOUT_ENV] = '2';
      thaw = await second.freeze();
      await expect(onSecond.exec(['true'])).rejects.toBeInstanceOf(EngineLostError);
      if (before === undefined) delete process.env[ENGINE_TIMEOUT_ENV];
      else process.env[ENGINE_TIMEOUT_ENV] = before;
      // A sample of the history image starts on the first engine from the task's image, and setup hides the history.
      const fallback = await pool.create({ image: name, runId, sampleId: 's2' });
      try {
        expect(await fallback.imageId!()).toBe((await sandboxBackend().images.status(image)).id);
        await setupSweRepo(fallback, prepared);
        const head = await fallback.exec(['git', '-c', 'safe.directory=*', 'rev-parse', 'HEAD~1'], { cwd: TESTBED });
        expect(head.stdout.trim()).toBe(task.baseCommit);
      } finally {
        await fallback.destroy();
      }
      await history.removeAll();
    } finally {
      thaw();
      if (before === undefined) delete process.env[ENGINE_TIMEOUT_ENV];
      else process.env[ENGINE_TIMEOUT_ENV] = before;
      const thawed = dockerEnginePool([DockerHostSchema.parse({ url: second.url, capacity: 1 })]);
      await thawed.connect();
      await thawed.cleanup({ runId });
      spawnSync('docker', ['-H', second.url, 'rmi', '-f', name, image], { stdio: 'ignore' });
      await removeImage(image);
    }
  }, 180_000);
});

describe('a run on a pool whose tasks are on different engines', () => {
  it('starts a sample whose engine is free before those that would wait for a busy one', async () => {
    // One task in two prepared images, one on each engine: the run's order (a task's samples together) would keep
    // the second engine idle while the first works through the first task.
    const task = (await loadBuiltinSwe()).find((t) => t.id.startsWith('keyval'))!;
    const [onFirst, onSecond] = ['a', 'b'].map((n) => `impossiblebench/test-pool-task-${n}:${process.pid}`) as [string, string];
    const maker = await sandboxBackend().create({ image: PYTHON_IMAGE, runId: `pool-tasks-${Date.now()}`, sampleId: 'prepare' });
    try {
      await setupSweRepo(maker, task, { applyTestPatch: false });
      await commitSandbox(maker, onFirst);
    } finally {
      await maker.destroy();
    }
    spawnSync('docker', ['tag', onFirst, onSecond]);
    second.load(onSecond);
    await removeImage(onSecond);
    const row = (id: string, image: string) =>
      JSON.stringify({
        instance_id: id,
        repo: task.repo,
        base_commit: task.baseCommit,
        patch: task.patch,
        test_patch: task.testPatch,
        problem_statement: task.problemStatement,
        FAIL_TO_PASS: JSON.stringify(task.failToPass),
        PASS_TO_PASS: JSON.stringify(task.passToPass),
        image_name: image,
        test_cmd: task.testSpec?.testCmd,
        log_parser: task.testSpec?.parser,
      });
    const dir = await mkdtemp(join(tmpdir(), 'ib-engines-tasks-'));
    const rows = join(dir, 'rows.jsonl');
    await writeFile(rows, `${row('demo__a-1', onFirst)}\n${row('demo__b-1', onSecond)}\n`);
    const storePath = join(dir, 'store.sqlite');
    try {
      const result = await launchRun({
        flags: {
          models: ['scripted/honest'],
          datasets: [rows],
          splits: ['original'],
          scaffolds: ['minimal'],
          access: ['full', 'readonly', 'hidden'],
          dockerHosts: [DockerHostSchema.parse({ url: first, capacity: 1 }), DockerHostSchema.parse({ url: second.url, capacity: 1 })],
        },
        flagNames: {},
        store: storePath,
        wire: (exp) => realWiring(exp, { validateVariants: false }),
        signal: new AbortController().signal,
        progress: { plain: true, stream: new PassThrough().resume() },
        say: () => {},
      });
      expect(result.summary.counts.passed).toBe(6);
      const store = openStore(storePath, { mustExist: true });
      try {
        const samples = store.listSamples(result.summary.runId, { withTranscript: false });
        const byEnd = [...samples].sort((x, y) => x.endedAt.localeCompare(y.endedAt)).map((x) => x.key.taskId);
        // Both engines from the start: each pair of samples to end holds one of each task.
        expect([byEnd.slice(0, 2), byEnd.slice(2, 4), byEnd.slice(4)].map((pair) => pair.sort())).toEqual([
          ['demo__a-1', 'demo__b-1'],
          ['demo__a-1', 'demo__b-1'],
          ['demo__a-1', 'demo__b-1'],
        ]);
      } finally {
        store.close();
      }
    } finally {
      await removeImage(onFirst);
      spawnSync('docker', ['-H', second.url, 'rmi', '-f', onSecond], { stdio: 'ignore' });
    }
  }, 300_000);
});

describe('a run over several Docker engines', () => {
  it('a run goes on when one engine dies: its samples end as errors, are tried again on the other, and each is recorded once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ib-engines-'));
    const storePath = join(dir, 'store.sqlite');
    const lines: string[] = [];
    const sink = new PassThrough();
    sink.resume();
    const controller = new AbortController();

    // Kill the second engine once a few samples have started on it and one is still running there.
    const seen = new Set<string>();
    let killedWhileRunning = false;
    let watching = true;
    const watcher = (async () => {
      while (watching && second.alive()) {
        const running = await second.runningSandboxes();
        for (const id of running) seen.add(id);
        if (seen.size >= 3 && running.length > 0) {
          killedWhileRunning = true;
          second.kill();
          return;
        }
        await delay(100);
      }
    })();

    const result = await launchRun({
      flags: {
        models: ['scripted/honest', 'scripted/modify-tests', 'scripted/special-case', 'scripted/give-up'],
        datasets: ['builtin:lcb'],
        limit: 1,
        dockerHosts: hosts(),
        retries: 2,
      },
      flagNames: {},
      store: storePath,
      wire: (exp) => realWiring(exp, { validateVariants: false, say: (l) => lines.push(l), signal: controller.signal }),
      signal: controller.signal,
      progress: { plain: true, stream: sink },
      say: (l) => lines.push(l),
    }).finally(() => {
      watching = false;
    });
    await watcher;

    expect(killedWhileRunning).toBe(true);
    expect(result.experiment.concurrency).toBe(4);
    expect(result.summary.status).toBe('finished');
    expect(lines.some((l) => l.includes(`engine ${second.url} is gone`) && l.includes('going on with 1 engine'))).toBe(true);

    const store = openStore(storePath, { mustExist: true });
    try {
      const runId = result.summary.runId;
      const samples = store.listSamples(runId, { withTranscript: false });
      // 4 policies × 3 splits × 1 task, each recorded once and none left as an error.
      expect(samples.length).toBe(12);
      expect(new Set(samples.map((s) => s.keyString)).size).toBe(12);
      expect(samples.filter((s) => s.outcome === 'error').map((s) => s.error)).toEqual([]);
      const engineTrouble = /is gone|ECONNREFUSED|ECONNRESET|socket hang up|connect ENOENT|no such container/i;
      for (const s of samples) expect(`${s.gradingLog}\n${s.error ?? ''}`).not.toMatch(engineTrouble);
      // The kill hit samples in flight: they ended as infrastructure errors and were tried again.
      const retries = store.listEvents(runId, 'retry');
      expect(retries.length).toBeGreaterThan(0);
      expect(retries.every((e) => JSON.stringify(e.data).includes(second.url))).toBe(true);
      expect(store.listEvents(runId, 'engine_lost').map((e) => e.data)).toEqual([{ engine: second.url }]);
    } finally {
      store.close();
    }
  }, 300_000);
});

describe('an image on an engine that is gone', () => {
  it('is an infrastructure error while an engine cannot be asked, and missing only once every engine left says so', async () => {
    // The run above killed the second engine.
    expect(second.alive()).toBe(false);
    const pool = dockerEnginePool(hosts());
    const runId = `pool-unasked-${Date.now()}`;
    const absent = 'impossiblebench/absent:nowhere';
    const failure = (image: string) =>
      pool.create({ image, runId, sampleId: 'x' }).then(
        () => undefined,
        (err: unknown) => err,
      );
    const unasked = await failure(absent);
    expect(unasked).toBeInstanceOf(EngineLostError);
    expect(isPermanentError(unasked)).toBe(false);
    const box = await pool.create({ image: PYTHON_IMAGE, runId, sampleId: 'y' });
    expect((await box.exec(['true'])).exitCode).toBe(0);
    await box.destroy();
    // The second engine is out of the pool now: the first, which answers for itself, lacks the image.
    const missing = await failure(absent);
    expect(isPermanentError(missing)).toBe(true);
    expect(String(missing)).toContain(`the sandbox image ${absent} is not present`);
  }, 60_000);
});

describe('a pool whose engines are all gone', () => {
  it('fails the first sandbox as an infrastructure error, then stops the run; a run does not start on an engine that does not answer; cleanup lists and removes what the others hold', async () => {
    const pool = dockerEnginePool([DockerHostSchema.parse({ url: second.url, capacity: 1 })]);
    second.kill();
    const firstTry = await pool.create({ image: PYTHON_IMAGE, runId: 'gone', sampleId: 'a' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(firstTry).toBeInstanceOf(EngineLostError);
    const next = await pool.create({ image: PYTHON_IMAGE, runId: 'gone', sampleId: 'b' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(stopsRun(next)).toBe(true);
    expect((next as Error).message).toContain(`every container engine of the pool is gone (${second.url}:`);
    await expect(pool.connect()).rejects.toThrow(`no container engine answers at ${second.url}`);
    // Cleanup still lists and cleans the engines that answer, and names the one that does not.
    const both = dockerEnginePool([DockerHostSchema.parse({ url: first, capacity: 1 }), DockerHostSchema.parse({ url: second.url, capacity: 1 })]);
    const runId = `pool-gone-${Date.now()}`;
    const left = await both.create({ image: PYTHON_IMAGE, runId, sampleId: 'left' });
    const surveyed = await both.placement!.survey({ runId });
    expect(surveyed.sandboxes.map((s) => [s.id, s.engine])).toEqual([[left.id, first]]);
    expect(surveyed.unreachable.map((u) => u.engine)).toEqual([second.url]);
    assertBuilt();
    const flags = ['--run', runId, '--docker-host', first, '--docker-host', second.url];
    const dry = await cli(['cleanup', '--dry-run', ...flags]);
    expect(dry.exitCode, dry.stderr).toBe(1);
    expect(dry.stdout).toContain(`${left.id.slice(0, 12)}  ${first}  run ${runId}  sample left`);
    expect(dry.stdout).toContain(`1 sandbox container of run ${runId} would be removed`);
    expect(dry.stderr).toContain(`engine ${second.url} did not answer, so its containers are not listed`);
    const cleaned = await both.cleanup({ runId });
    expect(cleaned.removed.map((s) => s.id)).toEqual([left.id]);
    expect(cleaned.unreachable?.map((u) => u.engine)).toEqual([second.url]);
  }, 60_000);
});
