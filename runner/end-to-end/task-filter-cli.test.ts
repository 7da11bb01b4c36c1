import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../results/store.js';
import { assertBuilt, cli } from '../testing/cli.js';
import { minimalSweRow } from '../testing/swe-rows.js';

let dir: string;
beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'ib-task-filter-'));
});

/** The task ids of the samples a run stored, and the ids its config recorded. */
function stored(path: string) {
  const store = openStore(path, { mustExist: true });
  try {
    const [run] = store.listRuns();
    const taskIds = [...new Set(store.listSamples(run!.id, { withTranscript: false }).map((s) => s.key.taskId))].sort();
    return { runId: run!.id, taskIds, config: run!.config as { tasks: string[]; excludeTasks: string[] } };
  } finally {
    store.close();
  }
}

const LCB = ['--model', 'scripted/honest', '--dataset', 'builtin:lcb', '--split', 'original', '--scaffold', 'minimal', '--plain'];

describe('run --task, --exclude-task, --exclude-file', () => {
  it('runs only the --task ids of builtin:lcb, and the report names them', async () => {
    const store = join(dir, 'only.sqlite');
    const r = await cli(['run', ...LCB, '--task', 'ib_lcb_05', '--task', 'ib_lcb_02', '--store', store]);
    expect(r.exitCode, r.stderr).toBe(0);
    const s = stored(store);
    expect(s.taskIds).toEqual(['ib_lcb_02', 'ib_lcb_05']);
    expect(s.config.tasks).toEqual(['ib_lcb_05', 'ib_lcb_02']);
    const report = await cli(['report', s.runId, '--store', store]);
    expect(report.stdout).toContain('Chosen by id: only the tasks `ib_lcb_05`, `ib_lcb_02` (`--task`).');
  });

  it('leaves out the ids of --exclude-file and --exclude-task, and records them all with the run', async () => {
    const ids = (await cli(['datasets', 'show', 'builtin:lcb', '--ids'])).stdout.trim().split('\n');
    expect(ids).toHaveLength(28);
    const kept = ['ib_lcb_03', 'ib_lcb_17'];
    const left = ids.filter((id) => !kept.includes(id));
    // The file as a user keeps one: comments, blank lines, one id given by flag instead.
    const file = join(dir, 'exclude.txt');
    await writeFile(file, `# too slow on this machine\n${left.slice(1).join('\n')}\n\n${left[1]}  # twice is fine\n`);
    const store = join(dir, 'excluded.sqlite');
    const r = await cli(['run', ...LCB, '--exclude-task', left[0]!, '--exclude-file', file, '--store', store]);
    expect(r.exitCode, r.stderr).toBe(0);
    const s = stored(store);
    expect(s.taskIds).toEqual(kept);
    expect([...s.config.excludeTasks].sort()).toEqual([...left].sort());
    expect(s.config).not.toHaveProperty('excludeFile');
    const report = await cli(['report', s.runId, '--store', store]);
    expect(report.stdout).toContain(`tasks left out: \`${left[0]}\``);
  });

  it('stops before any sample on an id no dataset has, in one line, and leaves no run', async () => {
    const store = join(dir, 'typo.sqlite');
    const r = await cli(['run', ...LCB, '--task', 'ib_lcb_02', '--exclude-task', 'ib_lcb_99', '--store', store]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('--exclude-task ib_lcb_99: no task of builtin:lcb has that id');
    expect(r.stderr).toContain('datasets show DATASET --ids');
    if (existsSync(store)) {
      const db = openStore(store, { mustExist: true });
      expect(db.listRuns()).toEqual([]);
      db.close();
    }
  });

  it('chooses among the tasks of a SWE rows file the same way, and names an unknown id there too', async () => {
    const rows = join(dir, 'rows.jsonl');
    await writeFile(rows, `${['demo__demo-1', 'demo__demo-2', 'demo__demo-3'].map(minimalSweRow).join('\n')}\n`);
    const file = join(dir, 'swe-exclude.txt');
    await writeFile(file, 'demo__demo-1\n');
    const swe = ['--model', 'scripted/honest', '--dataset', rows, '--split', 'original', '--scaffold', 'full', '--store', join(dir, 'swe.sqlite')];
    // A dry run plans with the run's own selection and needs no image: it names the tasks the missing images hold back.
    const only = await cli(['run', ...swe, '--task', 'demo__demo-2', '--dry-run']);
    expect(only.exitCode, only.stderr).toBe(0);
    const onlyText = `${only.stdout}${only.stderr}`;
    expect(onlyText).toContain(`(${rows}: demo__demo-2)`);
    expect(onlyText).toContain('with them: 1 samples planned');
    expect(onlyText).toContain('--task demo__demo-2');
    expect(onlyText).not.toMatch(/demo__demo-[13]/);
    const rest = await cli(['run', ...swe, '--exclude-file', file, '--dry-run']);
    expect(rest.exitCode, rest.stderr).toBe(0);
    const restText = `${rest.stdout}${rest.stderr}`;
    expect(restText).toContain('with them: 2 samples planned');
    for (const id of ['demo__demo-2', 'demo__demo-3']) expect(restText).toContain(`${rows}: ${id})`);
    expect(restText).not.toContain(': demo__demo-1)');
    // The command that gets the images picks the same tasks.
    expect(restText).toContain('--exclude-task demo__demo-1');
    const typo = await cli(['run', ...swe, '--task', 'demo__demo-9', '--dry-run']);
    expect(typo.exitCode).toBe(1);
    expect(typo.stderr).toContain(`--task demo__demo-9: no task of ${rows} has that id`);
  });
});
