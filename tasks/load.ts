import { resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { hubManifest, hubSplitFiles, orderSplits, type HubOptions } from './hub.js';
import { DATASET_FORMS, readRows, type RawRows } from './readers.js';
import { formatProblem, type RowProblem } from './rows.js';
import { kindOfRow, rowFormats, taskKind } from './kinds/registry.js';
import { loadBuiltinLcb } from './suites/lcb.js';
import { loadBuiltinSwe } from './suites/swe.js';
import type { ImageNaming } from './images.js';
import type { Task, TestSpec } from './task.js';

export const BUILTIN_DATASETS = ['builtin:lcb', 'builtin:swe'] as const;

export type DatasetSpec = { type: 'builtin'; name: 'lcb' | 'swe' } | { type: 'hf'; repo: string; revision?: string } | { type: 'file'; path: string };

/** `builtin:lcb`, `builtin:swe`, `hf:OWNER/NAME[@REVISION]`, `file:PATH` or a plain path. */
export function parseDatasetSpec(spec: string): DatasetSpec {
  const text = spec.trim();
  if (!text) throw new UserError('no dataset given', DATASET_FORMS);
  if (text.startsWith('builtin:')) {
    const name = text.slice('builtin:'.length);
    if (name === 'lcb' || name === 'swe') return { type: 'builtin', name };
    throw new UserError(`unknown built-in dataset ${text} (known: ${BUILTIN_DATASETS.join(', ')})`);
  }
  if (text.startsWith('hf:')) {
    const [repo, revision] = text.slice(3).split('@', 2) as [string, string | undefined];
    return revision ? { type: 'hf', repo, revision } : { type: 'hf', repo };
  }
  return { type: 'file', path: text.startsWith('file:') ? text.slice(5) : text };
}

export interface LoadOptions extends HubOptions {
  /**
   * The splits (variants) wanted. Local files and built-in suites return every row anyway;
   * from the hub only these splits are fetched, plus the originals when a wanted split is
   * missing there (so its variants can be made from them).
   */
  splits?: readonly string[];
  /** Exactly one split: the hub split by that name, or the rows of that variant in a file. */
  split?: string;
  /** Fail on the first bad row instead of skipping and counting it. */
  strict?: boolean;
  /** Called for each bad row that is skipped. */
  onProblem?: (problem: RowProblem) => void;
  /** How SWE-bench rows without an `image_name` name their image (the published names by default). */
  images?: ImageNaming;
  /** Test specs by repository (`owner/name`, any case), over the rows' own and the harness's. */
  testSpecs?: Record<string, Omit<TestSpec, 'origin'>>;
}

export interface SplitSummary {
  name: string;
  rows: number;
  tasks: number;
}

export interface DatasetReport {
  dataset: string;
  /** Where the rows came from: file paths, or hub files with the commit they were read at. */
  sources: string[];
  /** Raw rows read (before validation). */
  rows: number;
  tasks: Task[];
  problems: RowProblem[];
  /** Rows left out because of problems. */
  skipped: number;
  splits: SplitSummary[];
  /** Every field name seen in the raw rows, in order of first appearance. */
  fields: string[];
}

/** Loads a dataset's tasks. Bad rows are skipped (and passed to onProblem) unless `strict`. */
export async function loadDataset(dataset: string, options: LoadOptions = {}): Promise<Task[]> {
  return (await readDataset(dataset, options)).tasks;
}

/** Loads a dataset with everything `datasets show` reports about it. */
export async function readDataset(dataset: string, options: LoadOptions = {}): Promise<DatasetReport> {
  const spec = parseDatasetSpec(dataset);
  if (spec.type === 'builtin') return readBuiltin(dataset, spec.name, options);
  const collector = new Collector(dataset, options);
  if (spec.type === 'file') {
    const path = resolve(spec.path);
    collector.add(await readRows(path), spec.path, undefined);
  } else {
    const hubOptions = spec.revision ? { ...options, revision: spec.revision } : options;
    const manifest = await hubManifest(spec.repo, hubOptions);
    for (const split of chooseHubSplits(Object.keys(manifest.splits), options, spec.repo)) {
      for (const path of await hubSplitFiles(manifest, split, hubOptions)) {
        const label = `hf:${spec.repo}@${manifest.sha.slice(0, 12)} ${split}`;
        collector.add(await readRows(path), label, split);
      }
    }
  }
  const report = collector.report();
  if (spec.type === 'file' && options.split) return onlyVariant(report, options.split);
  return report;
}

function chooseHubSplits(available: string[], options: LoadOptions, repo: string): string[] {
  if (options.split) {
    if (!available.includes(options.split)) {
      throw new UserError(`hf:${repo}: no split named ${options.split} (splits: ${available.join(', ')})`);
    }
    return [options.split];
  }
  if (!options.splits) return available;
  const chosen = options.splits.filter((s) => available.includes(s));
  const missing = options.splits.some((s) => !available.includes(s));
  if (missing && !chosen.includes('original')) {
    // A plain dataset (one split, e.g. SWE-bench's `test`) holds the originals.
    const originals = available.includes('original')
      ? 'original'
      : available.length === 1
        ? available[0]
        : available.includes('test')
          ? 'test'
          : undefined;
    if (originals && !chosen.includes(originals)) chosen.push(originals);
  }
  if (chosen.length === 0) {
    throw new UserError(`hf:${repo}: none of the splits ${options.splits.join(', ')} is there (splits: ${available.join(', ')})`);
  }
  return chosen;
}

async function readBuiltin(dataset: string, name: 'lcb' | 'swe', options: LoadOptions): Promise<DatasetReport> {
  const loaded =
    name === 'lcb'
      ? await loadBuiltinLcb()
      : await loadBuiltinSwe({ ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}), ...(options.say ? { say: options.say } : {}) });
  // The config's test specs hold for the built-in repositories as for any other.
  const all = loaded.map((t) => configured(t, options.testSpecs));
  const report: DatasetReport = {
    dataset,
    sources: [`${dataset} (written for this project)`],
    rows: all.length,
    tasks: all,
    problems: [],
    skipped: 0,
    splits: [{ name: 'original', rows: all.length, tasks: all.length }],
    fields: Object.keys(all[0] ?? {}),
  };
  return options.split ? onlyVariant(report, options.split) : report;
}

function onlyVariant(report: DatasetReport, split: string): DatasetReport {
  const split_ = report.splits.find((s) => s.name === split);
  if (!split_) {
    const impossible = split === 'oneoff' || split === 'conflicting';
    throw new UserError(
      `${report.dataset}: no split named ${split} (splits: ${report.splits.map((s) => s.name).join(', ')})`,
      impossible
        ? `make ${split} variants from the originals: impossiblebench mutate --dataset ${report.dataset} --type ${split} --out FILE.jsonl`
        : undefined,
    );
  }
  return { ...report, tasks: report.tasks.filter((t) => t.variant === split), splits: [split_] };
}

/** The task with what the config says of its kind (a repository's test spec), where it says anything. */
function configured(task: Task, testSpecs: LoadOptions['testSpecs']): Task {
  const configure = taskKind(task).configure;
  return testSpecs && configure ? (configure(task, { testSpecs }) as Task) : task;
}

/** Validates rows file by file, keeping the first problem fatal in strict mode. */
class Collector {
  private readonly tasks: Task[] = [];
  private readonly problems: RowProblem[] = [];
  private readonly sources: string[] = [];
  private readonly fields = new Set<string>();
  private readonly splitStats = new Map<string, SplitSummary>();
  private readonly seen = new Map<string, string>();
  private rows = 0;
  private skipped = 0;

  constructor(
    private readonly dataset: string,
    private readonly options: LoadOptions,
  ) {}

  add(raw: RawRows, label: string, hubSplit: string | undefined): void {
    this.sources.push(label);
    for (const p of raw.problems) this.problem({ ...p, file: label });
    this.skipped += raw.problems.length;
    this.rows += raw.rows.length + raw.problems.length;
    const kind = raw.rows.map((r) => kindOfRow(r.value)).find((k) => k !== undefined);
    for (const { row, value } of raw.rows) {
      if (value && typeof value === 'object' && !Array.isArray(value)) for (const k of Object.keys(value)) this.fields.add(k);
      if (!kind) {
        this.problem({
          file: label,
          row,
          field: '(row)',
          message: `neither ${rowFormats().join(' nor ')}`,
        });
        this.skipped++;
        continue;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        this.problem({ file: label, row, field: '(row)', message: `expected an object, found ${Array.isArray(value) ? 'an array' : typeof value}` });
        this.skipped++;
        continue;
      }
      const result = kind.rowToTask(value, {
        source: this.dataset,
        ...(hubSplit ? { split: hubSplit } : {}),
        ...(this.options.images ? { images: this.options.images } : {}),
      });
      if (!result.ok) {
        for (const p of result.problems) this.problem({ file: label, row, ...p });
        this.skipped++;
        continue;
      }
      const task = configured(result.task, this.options.testSpecs);
      const key = `${task.id}\u0000${task.variant}`;
      const first = this.seen.get(key);
      if (first) {
        this.problem({
          file: label,
          row,
          field: kind.rowIdField,
          message: `duplicate of ${first} (${task.id}, ${task.variant})`,
        });
        this.skipped++;
        continue;
      }
      this.seen.set(key, `row ${row}${this.sources.length > 1 ? ` of ${label}` : ''}`);
      this.tasks.push(task);
      const name = hubSplit ?? task.variant;
      const stat = this.splitStats.get(name) ?? { name, rows: 0, tasks: 0 };
      stat.tasks++;
      this.splitStats.set(name, stat);
    }
    // Rows per split: hub files belong to one split; file rows count under their variant.
    if (hubSplit) {
      const stat = this.splitStats.get(hubSplit) ?? { name: hubSplit, rows: 0, tasks: 0 };
      stat.rows += raw.rows.length + raw.problems.length;
      this.splitStats.set(hubSplit, stat);
    } else {
      for (const stat of this.splitStats.values()) stat.rows = stat.tasks;
    }
  }

  private problem(p: RowProblem): void {
    if (this.options.strict) throw new UserError(formatProblem(p));
    this.problems.push(p);
    this.options.onProblem?.(p);
  }

  report(): DatasetReport {
    return {
      dataset: this.dataset,
      sources: this.sources,
      rows: this.rows,
      tasks: this.tasks,
      problems: this.problems,
      skipped: this.skipped,
      splits: orderSplits([...this.splitStats.keys()]).map((name) => this.splitStats.get(name)!),
      fields: [...this.fields],
    };
  }
}
