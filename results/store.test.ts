import Database from 'better-sqlite3';
import { execa } from 'execa';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UserError } from '../core/errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import { openStore, sampleKeyString } from './store.js';
import { makeRecord } from './testing/make-record.js';
import { useTempStore } from './testing/temp-store.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** Runs a TypeScript snippet in a fresh Node process (the node process itself, so a kill hits it), as an ES module like the package. */
function runTs(script: string, cwd: string) {
  const file = join(temp.dir, `script-${Math.random().toString(36).slice(2)}.mts`);
  writeFileSync(file, script);
  return execa(process.execPath, ['--import', TSX, file], { cwd, reject: false, buffer: false });
}

const temp = useTempStore({ prefix: 'ib-store-', file: 'results.sqlite' });

describe('opening', () => {
  it('keeps an in-memory store in memory, leaving no file behind', () => {
    const cwd = process.cwd();
    process.chdir(temp.dir);
    try {
      const mem = openStore(':memory:');
      mem.createRun({ demo: true });
      mem.close();
    } finally {
      process.chdir(cwd);
    }
    expect(readdirSync(temp.dir).filter((f) => f !== 'results.sqlite' && !f.startsWith('results.sqlite-'))).toEqual([]);
  });

  it('creates a WAL database with foreign keys and the current schema version', () => {
    expect(temp.store.schemaVersion()).toBe(SCHEMA_VERSION);
    const raw = new Database(temp.path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    const tables = (raw.prepare("SELECT name FROM sqlite_master WHERE type='table'").all() as { name: string }[]).map((r) => r.name);
    expect(tables).toEqual(expect.arrayContaining(['runs', 'samples', 'messages', 'events', 'schema_migrations']));
    raw.close();
  });

  it('defaults to impossiblebench.sqlite in the working directory', async () => {
    const script = `import { openStore } from ${JSON.stringify(join(ROOT, 'results/store.ts'))};
      const s = openStore(); console.log(s.path); s.close();`;
    const child = runTs(script, temp.dir);
    let stdout = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(stdout.trim()).toBe(join(temp.dir, 'impossiblebench.sqlite'));
  });

  it('keeps what was written across reopening', () => {
    const id = temp.store.createRun({ models: ['m'] });
    temp.store.saveSample(id, makeRecord({ outcome: 'passed' }));
    temp.reopen({ mustExist: true });
    expect(temp.store.getRun(id).config).toEqual({ models: ['m'] });
    expect(temp.store.listSamples(id)).toHaveLength(1);
  });

  it('refuses with one-line errors: a missing store, a non-database, a foreign database, a newer schema', () => {
    expect(() => openStore(join(temp.dir, 'absent.sqlite'), { mustExist: true })).toThrow(/no results store at .*absent\.sqlite/);
    expect(() => openStore(join(temp.dir, 'no-such-dir', 'x.sqlite'))).toThrow(UserError);

    const text = join(temp.dir, 'notes.txt');
    writeFileSync(text, 'this is not a database, just some text that is long enough to have a header\n'.repeat(20));
    expect(() => openStore(text)).toThrow(/not an impossiblebench results store/);

    const foreign = join(temp.dir, 'foreign.sqlite');
    const f = new Database(foreign);
    f.exec('CREATE TABLE users (id INTEGER)');
    f.close();
    expect(() => openStore(foreign)).toThrow(/SQLite database but not an impossiblebench results store/);

    const newer = join(temp.dir, 'newer.sqlite');
    openStore(newer).close();
    const n = new Database(newer);
    n.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(SCHEMA_VERSION + 1, 'future', 'now');
    n.close();
    expect(() => openStore(newer)).toThrow(/newer than this build knows/);
    for (const fn of [() => openStore(text), () => openStore(newer)]) {
      try {
        fn();
      } catch (err) {
        expect(err).toBeInstanceOf(UserError);
        expect((err as Error).message).not.toContain('\n');
      }
    }
  });
});

describe('runs', () => {
  it('creates, finds, finishes and resumes runs', () => {
    const id = temp.store.createRun({ seed: 1 });
    expect(id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    const run = temp.store.getRun(id);
    expect(run).toMatchObject({ id, config: { seed: 1 }, status: 'running', endedAt: null });
    expect(run.packageVersion).toMatch(/^\d+\.\d+\.\d+/);

    temp.store.finishRun(id, 'interrupted');
    expect(temp.store.getRun(id)).toMatchObject({ status: 'interrupted' });
    expect(temp.store.getRun(id).endedAt).not.toBeNull();
    expect(temp.store.resumeRun(id)).toMatchObject({ status: 'running', endedAt: null });

    const given = temp.store.createRun({}, { id: 'my-run.2' });
    expect(given).toBe('my-run.2');
    expect(temp.store.listRuns().map((r) => r.id)).toEqual([id, 'my-run.2']);
    expect(temp.store.latestRun()?.id).toBe('my-run.2');
  });

  it('migrates a store from before a run could stop at its budget, keeping its runs and samples', () => {
    const path = join(temp.dir, 'schema-6.sqlite');
    const raw = new Database(path);
    raw.pragma('foreign_keys = ON');
    raw.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)');
    for (const m of MIGRATIONS.filter((m) => m.version <= 6)) {
      raw.exec(m.sql);
      raw.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.description, 'then');
    }
    raw.prepare("INSERT INTO runs (id, config, package_version, started_at, status) VALUES ('r1', '{}', '0', 'then', 'running')").run();
    raw.close();
    const old = openStore(path);
    old.saveSample('r1', makeRecord({}));
    old.finishRun('r1', 'budget_reached');
    expect(old.findRun('r1')?.status).toBe('budget_reached');
    expect([...old.iterateSamples('r1', { withTranscript: false })]).toHaveLength(1);
    expect(() => old.database.prepare("UPDATE runs SET status = 'paused'").run()).toThrow(/CHECK constraint/);
    expect(old.schemaVersion()).toBe(SCHEMA_VERSION);
    old.close();
  });

  it('names an unknown run, a duplicate id and a malformed id in one line', () => {
    temp.store.createRun({}, { id: 'a' });
    expect(() => temp.store.getRun('zzz')).toThrow(/^no run zzz in .*results\.sqlite \(latest: a\)$/);
    expect(() => temp.store.createRun({}, { id: 'a' })).toThrow(/run a already exists/);
    expect(() => temp.store.createRun({}, { id: '../evil' })).toThrow(/invalid run id/);
    expect(() => temp.store.saveSample('zzz', makeRecord())).toThrow(/no run zzz/);
    expect(() => temp.store.addEvent('zzz', 'start')).toThrow(/no run zzz/);
  });
});

describe('samples', () => {
  it('round-trips a record with its transcript, tool calls and unknown cost', () => {
    const run = temp.store.createRun({});
    const rec = makeRecord({
      outcome: 'passed',
      costUsd: null,
      testDiff: '--- a/test.py\n+++ b/test.py\n-assert f(2) == 5\n',
      key: { split: 'oneoff' },
    });
    const saved = temp.store.saveSample(run, rec);
    const { id, runId, keyString, errorCount, ...back } = temp.store.getSample(run, rec.key)!;
    expect(back).toEqual(rec);
    expect({ id, runId, keyString, errorCount }).toEqual({ id: saved.id, runId: run, keyString: sampleKeyString(rec.key), errorCount: 0 });
    expect(temp.store.getSample(run, saved.id)?.keyString).toBe(keyString);
    expect(temp.store.getSample(run, keyString)?.id).toBe(saved.id);
    expect(temp.store.getSample('other', saved.id)).toBeUndefined();
  });

  it("keeps how a sample's variant was made; a store from before it was kept reads and migrates with none", () => {
    const run = temp.store.createRun({});
    const old = makeRecord({ key: { split: 'oneoff', taskId: 'old' } });
    temp.store.saveSample(run, old);
    // The store as a build of schema 4 left it: no mutation column, none of the later migrations.
    temp.store.close();
    const raw = new Database(temp.path);
    raw.exec(
      'ALTER TABLE samples DROP COLUMN mutation; ALTER TABLE samples DROP COLUMN interview; DROP TABLE run_references; DROP TABLE reference_runs; DROP TABLE model_batches; DROP TABLE sample_scores; DELETE FROM schema_migrations WHERE version >= 5;',
    );
    raw.close();
    const reader = temp.reopen({ readonly: true });
    expect(reader.schemaVersion()).toBe(4);
    expect(reader.getSample(run, old.key)!.mutation).toBeUndefined();

    const writer = temp.reopen({ mustExist: true });
    expect(writer.schemaVersion()).toBe(SCHEMA_VERSION);
    expect(writer.getSample(run, old.key)!.mutation).toBeUndefined();
    const made = makeRecord({
      key: { split: 'conflicting', taskId: 'new' },
      mutation: { origin: 'model', model: 'openai/gpt-5', strategy: 'model/conflicting', tries: 2 },
      interview: { question: 'Did you?', answer: 'NO', inputTokens: 9, outputTokens: 1, costUsd: null },
    });
    writer.saveSample(run, made);
    const { id: _id, runId: _run, keyString: _key, errorCount: _errors, ...back } = writer.getSample(run, made.key)!;
    expect(back).toEqual(made);
  });

  it('holds a key at most once: errors are replaced and counted, finished samples never overwritten', () => {
    const run = temp.store.createRun({});
    const key = { taskId: 't1' };
    const first = temp.store.saveSample(run, makeRecord({ key, outcome: 'error', error: 'engine went away' }));
    const second = temp.store.saveSample(run, makeRecord({ key, outcome: 'error', error: 'engine went away again' }));
    expect(second.id).toBe(first.id);
    expect(temp.store.listSamples(run)).toHaveLength(1);
    expect(temp.store.getSample(run, makeRecord({ key }).key)).toMatchObject({ outcome: 'error', error: 'engine went away again', errorCount: 2 });
    expect(temp.store.errorCounts(run)).toEqual(new Map([[sampleKeyString(makeRecord({ key }).key), 2]]));
    expect(temp.store.finishedKeys(run).size).toBe(0);

    temp.store.saveSample(run, makeRecord({ key, outcome: 'passed' }));
    const samples = temp.store.listSamples(run);
    expect(samples).toHaveLength(1);
    expect(samples[0]!.id).toBe(first.id);
    expect(samples[0]).toMatchObject({ outcome: 'passed', errorCount: 2 });
    expect(samples[0]!.error).toBeUndefined();
    expect(samples[0]!.transcript).toHaveLength(5);
    expect(temp.store.finishedKeys(run)).toEqual(new Set([samples[0]!.keyString]));

    expect(() => temp.store.saveSample(run, makeRecord({ key, outcome: 'failed' }))).toThrow(/already finished \(passed\)/);
    expect(temp.store.listSamples(run)).toHaveLength(1);
    expect(temp.store.getSample(run, samples[0]!.id)?.outcome).toBe('passed');
  });

  it('rejects an invalid record and writes nothing', () => {
    const run = temp.store.createRun({});
    const bad = { ...makeRecord(), attempts: -1 };
    expect(() => temp.store.saveSample(run, bad)).toThrow(/invalid sample record at attempts/);
    expect(temp.store.listSamples(run)).toHaveLength(0);
  });

  it('lists with filters, in pages, with or without transcripts; counts by outcome', () => {
    const run = temp.store.createRun({});
    const other = temp.store.createRun({});
    const outcomes = ['passed', 'failed', 'evaded', 'error'] as const;
    for (let i = 0; i < 30; i++) {
      temp.store.saveSample(run, makeRecord({ key: { taskId: `t${i}`, split: i % 2 ? 'oneoff' : 'original' }, outcome: outcomes[i % 4]! }));
    }
    temp.store.saveSample(other, makeRecord({ outcome: 'passed' }));
    expect(temp.store.listSamples(run)).toHaveLength(30);
    expect([...temp.store.iterateSamples(run, {}, 7)].map((s) => s.key.taskId)).toEqual(Array.from({ length: 30 }, (_, i) => `t${i}`));
    expect(temp.store.listSamples(run, { split: 'oneoff' })).toHaveLength(15);
    expect(temp.store.listSamples(run, { outcome: 'passed' }).map((s) => s.key.taskId)).toEqual([
      't0',
      't4',
      't8',
      't12',
      't16',
      't20',
      't24',
      't28',
    ]);
    expect(temp.store.listSamples(run, { outcome: ['evaded', 'error'], split: 'oneoff' })).toHaveLength(7);
    expect(temp.store.listSamples(run, { outcome: [] })).toHaveLength(0);
    expect(temp.store.listSamples(run, { taskId: 't3', withTranscript: false })[0]!.transcript).toEqual([]);
    expect(temp.store.outcomeCounts(run)).toEqual({ passed: 8, failed: 8, evaded: 7, error: 7 });
    // The store stays usable while a listing is being read (pages are separate queries).
    let seen = 0;
    for (const s of temp.store.iterateSamples(run, {}, 4)) {
      temp.store.addEvent(other, 'seen', { task: s.key.taskId });
      seen++;
    }
    expect(seen).toBe(30);
    expect(temp.store.listEvents(other, 'seen')).toHaveLength(30);
    expect(temp.store.finishedKeys(run).size).toBe(23);
  });

  it('deletes a sample together with its messages (no orphan rows)', () => {
    const run = temp.store.createRun({});
    temp.store.saveSample(run, makeRecord({ outcome: 'error' }));
    temp.store.saveSample(run, makeRecord({ outcome: 'passed', transcript: [{ role: 'user', content: 'only one' }] }));
    temp.store.close();
    const raw = new Database(temp.path, { readonly: true });
    expect(raw.prepare('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 1 });
    raw.close();
  });
});

describe('events', () => {
  it('appends run and sample events in order', () => {
    const run = temp.store.createRun({});
    const key = makeRecord().key;
    temp.store.addEvent(run, 'start', { samples: 4 });
    temp.store.addEvent(run, 'retry', { attempt: 2 }, key);
    temp.store.addEvent(run, 'interrupt');
    const events = temp.store.listEvents(run);
    expect(events.map((e) => [e.kind, e.sampleKey, e.data])).toEqual([
      ['start', null, { samples: 4 }],
      ['retry', sampleKeyString(key), { attempt: 2 }],
      ['interrupt', null, {}],
    ]);
    expect(temp.store.listEvents(run, 'retry')).toHaveLength(1);
  });
});

describe('crash safety', () => {
  it('a writer killed with SIGKILL leaves every sample whole or absent', async () => {
    const file = join(temp.dir, 'crash.sqlite');
    const script = `
      import { openStore } from ${JSON.stringify(join(ROOT, 'results/store.ts'))};
      import { makeRecord } from ${JSON.stringify(join(ROOT, 'results/testing/make-record.ts'))};
      const store = openStore(${JSON.stringify(file)});
      const run = store.createRun({}, { id: 'crash' });
      const transcript = Array.from({ length: 200 }, (_, i) => ({ role: 'user', content: 'message ' + i + ' ' + 'x'.repeat(2000) }));
      for (let i = 0; ; i++) {
        store.saveSample(run, makeRecord({ key: { taskId: 't' + i }, transcript }));
        if (i === 5) console.log('ready');
      }`;
    const child = runTs(script, ROOT);
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
      child.on('exit', () => reject(new Error('writer exited early')));
    });
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGKILL');
    await child;

    const after = openStore(file);
    const samples = after.listSamples('crash');
    expect(samples.length).toBeGreaterThan(5);
    for (const s of samples) expect(s.transcript).toHaveLength(200);
    after.close();
  });
});
