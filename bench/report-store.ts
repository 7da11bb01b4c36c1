import type Database from 'better-sqlite3';
import type { TranscriptMessage } from '../core/record.js';
import { openStore, type StoredSample } from '../results/store.js';

export interface GeneratedStore {
  runId: string;
  samples: number;
  /** Characters of transcript per sample, on average. */
  transcriptChars: number;
  /** A string only one sample's transcript holds, for the search. */
  needle: string;
}

/** Lines of shell output, varied so that no compression or search shortcut makes them cheaper than a real log. */
function commandOutput(seed: number, chars: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < chars; i++) {
    const line = `tests/test_module_${(seed * 31 + i) % 997}.py::test_case_${i} ${i % 7 === 0 ? 'FAILED' : 'PASSED'} [${(i * 13) % 100}%] elapsed=${((seed + i) % 1000) / 100}s`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** The sample's own transcript, then turns of commands and their output until it holds about `chars` characters. */
function lengthened(base: TranscriptMessage[], seed: number, chars: number): TranscriptMessage[] {
  const out = [...base];
  const TURN = 3500;
  let size = out.reduce((n, m) => n + m.content.length, 0);
  for (let turn = 0; size < chars; turn++) {
    const id = `call_pad_${turn}`;
    out.push({
      role: 'assistant',
      content: `Running the tests again (turn ${turn}).`,
      toolCalls: [{ id, name: 'bash', arguments: '{"command":"pytest -q"}' }],
    });
    const output = commandOutput(seed + turn, Math.min(TURN, chars - size));
    out.push({ role: 'tool', content: output, toolCallId: id, name: 'bash' });
    size += output.length + 40;
  }
  return out;
}

/**
 * A store of `count` samples: the samples of a real run copied in turn, each copy a new epoch, with transcripts
 * lengthened to about `transcriptChars` characters.
 */
export function generateStore(path: string, count: number, transcriptChars: number, source: { store: string; run: string }): GeneratedStore {
  const store = openStore(path);
  // Generation only: one sync at the end is enough, the benchmark measures the reading.
  store.database.pragma('synchronous = OFF');
  const from = openStore(source.store, { mustExist: true, readonly: true });
  const base: StoredSample[] = from.listSamples(source.run).filter((s) => s.outcome !== 'error');
  from.close();
  if (base.length === 0) throw new Error(`run ${source.run} of ${source.store} holds no finished sample to copy`);
  const runId = store.createRun({ generatedBy: 'bench:report', samples: count, transcriptChars });
  const needle = `needle-${Date.now().toString(36)}-only-here`;
  let chars = 0;
  for (let i = 0; i < count; i++) {
    const from = base[i % base.length]!;
    const epoch = Math.floor(i / base.length);
    const transcript = lengthened(from.transcript, i, transcriptChars);
    if (i === Math.floor(count / 2)) transcript.push({ role: 'assistant', content: `The answer is ${needle}.` });
    chars += transcript.reduce((n, m) => n + m.content.length, 0);
    const { id: _id, runId: _run, keyString: _key, errorCount: _errors, ...record } = from;
    store.saveSample(runId, { ...record, key: { ...from.key, epoch }, transcript });
  }
  store.finishRun(runId);
  store.close();
  return { runId, samples: count, transcriptChars: Math.round(chars / count), needle };
}

/** A store `generateStore` made before: its latest run, its size and its needle. */
export function describeStore(path: string): GeneratedStore {
  const store = openStore(path, { mustExist: true, readonly: true });
  try {
    const run = store.latestRun();
    if (!run) throw new Error(`${path} holds no run`);
    const db = store.database;
    const { n, chars } = db
      .prepare(
        'SELECT COUNT(DISTINCT s.id) AS n, SUM(length(m.content)) AS chars FROM samples s JOIN messages m ON m.sample_id = s.id WHERE s.run_id = ?',
      )
      .get(run.id) as { n: number; chars: number };
    const hit = db.prepare("SELECT content FROM messages WHERE content LIKE '%needle-%-only-here%' LIMIT 1").get() as { content: string } | undefined;
    const needle = /needle-\S+-only-here/.exec(hit?.content ?? '')?.[0];
    if (!needle) throw new Error(`${path} was not made by bench:report (no needle in its transcripts)`);
    return { runId: run.id, samples: n, transcriptChars: Math.round(chars / n), needle };
  } finally {
    store.close();
  }
}

/** Bytes each index takes in the store's file, against the whole file (SQLite's dbstat). */
export function indexBytes(db: Database.Database): { kinds: number; transcripts: number; total: number } {
  const rows = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name').all() as { name: string; bytes: number }[];
  const sum = (test: (name: string) => boolean) => rows.filter((r) => test(r.name)).reduce((n, r) => n + r.bytes, 0);
  return {
    kinds: sum((n) => n.startsWith('sample_kinds')),
    transcripts: sum((n) => n.startsWith('transcript_text')),
    total: sum(() => true),
  };
}
