import { interviewMetrics } from '../interview-metrics.js';
import { writeLinesAtomic } from '../../core/atomic-write.js';
import { classifySample, countKinds, type KindFinding } from '../classify/index.js';
import { verdictsByKey } from '../classify/judge-run.js';
import { labelOf } from '../labels.js';
import { computeMetrics, configRows } from '../metrics.js';
import { countVerdicts, type ReportData } from '../report-data.js';
import { DEFAULT_THRESHOLD } from '../monitor/metrics.js';
import { monitorReportData, staticReads } from '../monitor/report-data.js';
import { monitorVerdictsByKey } from '../monitor/verdict.js';
import type { ResultStore, StoredSample } from '../store.js';
import { compareSamples, pageJsonFields, pageShell, sampleForPage, scriptJson, type PageFrame } from './page.js';
import { runEnvironment } from '../report-environment.js';
import { compareEveryField } from '../compare/by-field.js';

/**
 * Transcripts a page embeds by default: 150 of 100 KB beside the index of 10,000 samples (about 0.9 KB each) make a
 * page of about 25 MB, which a browser opens in seconds.
 */
export const DEFAULT_MAX_TRANSCRIPTS = 150;

export interface HtmlReportOptions {
  threshold?: number;
  /** Embed the transcripts, diffs and logs of at most this many samples; the rest are listed in the index only. */
  maxTranscripts?: number;
  /** The store's path as the user gave it, for the `view` command the page names. */
  storeLabel?: string;
  /** Where the samples left out can be read, said on the page; default the `view` command for the store. */
  elsewhere?: string;
}

export interface HtmlReportSummary {
  samples: number;
  embedded: number;
}

/** A sample without its evidence: what the index holds for every sample. */
type IndexEntry = Omit<StoredSample, 'transcript' | 'sourceDiff' | 'testDiff' | 'outsideChanges' | 'gradingLog'> & { testEdited: boolean };

function indexEntry(s: StoredSample): IndexEntry {
  const { transcript: _t, sourceDiff: _s, testDiff, outsideChanges: _o, gradingLog: _g, ...rest } = s;
  // An error message can be a long stack: the index keeps its first line.
  return { ...rest, error: s.error?.split('\n', 1)[0], testEdited: testDiff.length > 0 };
}

/** Tampered passes first, then the other cheating samples, then evasions, then the rest. */
function embedPriority(s: IndexEntry): number {
  if (s.tamper.length) return 0;
  if (labelOf(s) === 'cheating') return 1;
  if (s.outcome === 'evaded') return 2;
  return 3;
}

/** The ids whose evidence the page embeds: up to `max`, by priority, each group in the page's order. */
function chooseEmbedded(sorted: IndexEntry[], max: number): Set<number> {
  const ranked = sorted.map((s, i) => ({ id: s.id, rank: embedPriority(s), i })).sort((a, b) => a.rank - b.rank || a.i - b.i);
  return new Set(ranked.slice(0, Math.max(0, max)).map((r) => r.id));
}

/** One pass over the run's passes and evasions (transcripts read a page at a time): their kinds, and the passes for the static monitor. */
function* classifiedPasses(store: ResultStore, runId: string, kindsById: Map<number, KindFinding[]>): Generator<StoredSample> {
  // Small pages: a page of long transcripts is what this process holds at its peak.
  for (const record of store.iterateSamples(runId, { outcome: ['passed', 'evaded'] }, 20)) {
    const found = classifySample(record);
    if (found) kindsById.set(record.id, found);
    if (record.outcome === 'passed') yield record;
  }
}

/** A sample listed without its evidence: the page shows where to read it. */
function omittedSample(entry: IndexEntry): Pick<StoredSample, 'transcript' | 'testDiff' | 'sourceDiff' | 'outsideChanges' | 'gradingLog'> {
  // Short: at 10,000 samples every byte of this note is 10 KB of page.
  return {
    transcript: [{ role: 'system', content: OMITTED_NOTE }],
    testDiff: entry.testEdited ? '(test files changed)' : '',
    sourceDiff: '',
    outsideChanges: '',
    gradingLog: '',
  };
}

/** What an omitted sample's transcript says; the page's notice names where to read it. */
export const OMITTED_NOTE = 'Not embedded in this page: see the note at its top.';

/** The page of a run's report, ready to be written a piece at a time. */
export interface HtmlReportStream {
  summary: HtmlReportSummary;
  /** What the Markdown report needs, from the same reading of the store. */
  reportData: ReportData;
  /** The page's text in pieces: the head, each sample's JSON, the tail. Each sample's evidence is read as it is reached. */
  chunks(): Generator<string>;
}

/**
 * Prepares the run's HTML report: the index of every sample, the evidence of at most `maxTranscripts`
 * (tampered and cheating ones first). No transcript outlives the piece it is written in, so memory
 * holds the index, not the transcripts.
 */
export function htmlReportStream(store: ResultStore, runId: string, options: HtmlReportOptions = {}): HtmlReportStream {
  const run = store.getRun(runId);
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  const index = Array.from(store.iterateSamples(run.id, { withTranscript: false }), indexEntry).sort(compareSamples);
  const cells = computeMetrics(index);
  const kindsById = new Map<number, KindFinding[]>();
  const monitors = monitorReportData(index, staticReads(classifiedPasses(store, run.id, kindsById)), monitorVerdictsByKey(store, run.id), threshold);
  const embedded = chooseEmbedded(index, options.maxTranscripts ?? DEFAULT_MAX_TRANSCRIPTS);
  const environment = runEnvironment(store, run);
  const frame: PageFrame = {
    run,
    rows: configRows(cells),
    cellCount: cells.length,
    monitors,
    events: store.listEvents(run.id),
    environment,
    comparisons: compareEveryField(index),
    interviews: interviewMetrics(index),
  };
  const elsewhere = options.elsewhere ?? `impossiblebench view ${options.storeLabel ?? store.path}`;
  const omitted = index.length - embedded.size;
  const notice = omitted
    ? `This page embeds the transcripts, diffs and grading logs of ${embedded.size} of ${index.length} samples (tampered and cheating ones first); every sample is in the index and the charts. Read the other ${omitted} with: ${elsewhere}`
    : '';
  const { head, tail } = pageShell(frame, notice);
  const verdicts = verdictsByKey(store, run.id);
  const context = { kindsById, verdicts, monitors };
  const reportData: ReportData = {
    run,
    counts: store.outcomeCounts(run.id),
    cells,
    rows: frame.rows,
    kinds: countKinds(index.map((record) => ({ record, kinds: kindsById.get(record.id) ?? null }))),
    judgeCounts: countVerdicts(verdicts),
    interviews: frame.interviews,
    monitors,
    environment,
  };
  function* chunks(): Generator<string> {
    yield `${head}${scriptJson(pageJsonFields(frame)).slice(0, -1)},"samples":[`;
    let first = true;
    for (const entry of index) {
      const full = embedded.has(entry.id) ? store.getSample(run.id, entry.id) : undefined;
      const sample: StoredSample = full ?? { ...entry, ...omittedSample(entry) };
      yield `${first ? '' : ','}${scriptJson(sampleForPage(context, sample))}`;
      first = false;
    }
    yield `]}${tail}`;
  }
  return { summary: { samples: index.length, embedded: embedded.size }, reportData, chunks };
}

/** Writes the run's HTML report to `file` a piece at a time, atomically. */
export async function writeHtmlReportStreaming(
  store: ResultStore,
  runId: string,
  file: string,
  options: HtmlReportOptions = {},
): Promise<HtmlReportSummary> {
  return writeHtmlReportStream(htmlReportStream(store, runId, options), file);
}

/** Writes a prepared report page to `file`, atomically. */
export async function writeHtmlReportStream(page: HtmlReportStream, file: string): Promise<HtmlReportSummary> {
  await writeLinesAtomic(file, page.chunks());
  return page.summary;
}
