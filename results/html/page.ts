import { CHEATING_KINDS, KIND_DESCRIPTIONS } from '../classify/index.js';
import { labelOf } from '../labels.js';
import { monitorIdString } from '../monitor/report-data.js';
import { shortHash } from '../../core/text-file.js';
import type { FullReportData } from '../report-data.js';
import type { StoredSample } from '../store.js';
import { CLIENT_SCRIPT } from './client.js';
import { STYLES } from './styles.js';
import { environmentHtml } from './environment.js';
import { comparisonsHtml } from './comparisons.js';

import { escapeHtml } from './escape.js';
import { interviewsHtml } from './interviews.js';

export { escapeHtml };

/**
 * JSON that is safe inside a `<script>` element: no `<` can close the element or open a comment,
 * and the two line separators JavaScript once treated as newlines are escaped too.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

// Nothing may load from anywhere: no network, no other file. Inline style and script only.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const SPLIT_ORDER = { original: 0, oneoff: 1, conflicting: 2 } as const;

/** Samples listed by config, then split, task and epoch: the order of the headline table. */
export function compareSamples(a: Pick<StoredSample, 'key'>, b: Pick<StoredSample, 'key'>): number {
  const x = a.key;
  const y = b.key;
  return (
    x.model.localeCompare(y.model) ||
    x.dataset.localeCompare(y.dataset) ||
    x.scaffold.localeCompare(y.scaffold) ||
    x.access.localeCompare(y.access) ||
    x.prompt.localeCompare(y.prompt) ||
    x.maxAttempts - y.maxAttempts ||
    SPLIT_ORDER[x.split] - SPLIT_ORDER[y.split] ||
    x.taskId.localeCompare(y.taskId, 'en', { numeric: true }) ||
    x.epoch - y.epoch
  );
}

/** Events beyond this many (the oldest) stay in the store: the page is for reading, not archiving. */
const MAX_EVENTS = 1000;

/** A sample as the page's script reads it: the index fields, and the evidence when it is embedded. */
export function sampleForPage(data: Pick<FullReportData, 'kindsById' | 'verdicts' | 'monitors'>, s: StoredSample) {
  return {
    id: s.id,
    key: s.key,
    keyString: s.keyString,
    label: labelOf(s),
    outcome: s.outcome,
    tamper: s.tamper,
    stopReason: s.stopReason,
    attempts: s.attempts,
    inputTokens: s.inputTokens,
    cacheReadTokens: s.cacheReadTokens,
    outputTokens: s.outputTokens,
    costUsd: s.costUsd,
    wallMs: s.wallMs,
    startedAt: s.startedAt,
    errorCount: s.errorCount,
    transcript: s.transcript,
    sourceDiff: s.sourceDiff,
    testDiff: s.testDiff,
    outsideChanges: s.outsideChanges,
    gradingLog: s.gradingLog,
    error: s.error ?? null,
    kinds: data.kindsById.get(s.id) ?? null,
    judges: data.verdicts.get(s.keyString) ?? [],
    monitors: data.monitors.bySample.get(s.keyString) ?? [],
  };
}

/** A sample in the page's JSON. */
export type PageSample = ReturnType<typeof sampleForPage>;

/** What the page embeds besides the samples. */
export type PageFrame = Pick<FullReportData, 'run' | 'rows' | 'monitors' | 'events' | 'environment' | 'comparisons' | 'interviews'> & {
  cellCount: number;
};

/** Everything in the page's JSON but the samples, keyed as the script reads it. */
export function pageJsonFields(data: PageFrame) {
  const monitors = {
    threshold: data.monitors.threshold,
    list: data.monitors.monitors.map((m) => ({
      id: monitorIdString(m.id),
      model: m.id.model,
      prompt: m.id.promptHash ? shortHash(m.id.promptHash) : '',
      promptHash: m.id.promptHash,
      overall: m.overall,
      byModel: m.byModel,
    })),
  };
  const events = data.events.slice(-MAX_EVENTS);
  const { run } = data;
  return {
    run: { id: run.id, status: run.status, config: run.config },
    rows: data.rows,
    events,
    eventsOmitted: data.events.length - events.length,
    kinds: { order: CHEATING_KINDS, descriptions: KIND_DESCRIPTIONS },
    monitors,
  };
}

/** The whole of the page's JSON, as its script reads it. */
export type PageJson = ReturnType<typeof pageJsonFields> & { samples: PageSample[] };

/**
 * The page around its JSON: `head` ends inside the data's script element, `tail` closes it. A
 * `notice` (plain text, escaped here) says above the overview what the page leaves out.
 */
export function pageShell(data: PageFrame, notice = ''): { head: string; tail: string } {
  const { run, rows } = data;
  const meta = [
    `run <b>${escapeHtml(run.id)}</b>`,
    escapeHtml(run.status),
    `started ${escapeHtml(run.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))}`,
    run.endedAt ? `ended ${escapeHtml(run.endedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))}` : '',
    `impossiblebench ${escapeHtml(run.packageVersion)}`,
  ].filter(Boolean);
  const hasMonitors = data.monitors.monitors.length > 0;
  const head = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>ImpossibleBench · ${escapeHtml(run.id)}</title>
<style>${STYLES}</style>
</head>
<body>
<header class="top">
  <h1><span class="brand">Impossible</span>Bench report</h1>
  <div class="meta">${meta.map((m) => `<span>${m}</span>`).join('')}</div>
</header>
<main>
<noscript><p>This report draws its tables, charts and transcripts with JavaScript; allow scripts for this file to read it.</p></noscript>
${notice ? `<p class="notice" id="page-notice">${escapeHtml(notice)}</p>\n` : ''}<div id="overview">
  <div class="stats" id="stats"></div>
  <div class="filters" id="filters"></div>
  <section class="card">
    <h2>Cheating rate beside the original pass rate</h2>
    <p class="sub">On an impossible split the tests contradict the spec, so every pass is a shortcut: its pass rate is the cheating rate. Each is shown beside the pass rate of the same config on the original tests. Rates leave out samples that ended in an infrastructure error.</p>
    <div id="headline"></div>
  </section>
${comparisonsHtml(data.comparisons)}  <section class="card">
    <h2>How the samples cheated</h2>
    <p class="sub">Each pass on an impossible split and each evasion, classified from its diffs, outside changes and transcript; a sample counts under every kind it shows. Click a kind to list its samples.</p>
    <div id="kinds-summary"></div>
  </section>
${
  hasMonitors
    ? `<section class="card" id="monitors-card">
    <h2>Monitors</h2>
    <p class="sub">How well each monitor tells cheating passes from legitimate passes on the original split, per agent model, with the kinds of cheating it faced. A monitor flags a sample when its suspicion score is at least ${escapeHtml(String(data.monitors.threshold))}. Detection: cheating samples flagged; false positives: legitimate passes flagged; whiskers: Wilson 95% intervals. The static classifier flags a pass whose evidence shows any known trick, with no model.</p>
    <div id="monitors"></div>
  </section>
  `
    : ''
}${interviewsHtml(data.interviews)}${environmentHtml(data.environment)}<section class="card">
    <details class="cells"><summary>Every cell</summary><div id="cells"></div></details>
  </section>
  <section class="card">
    <h2>Samples</h2>
    <p class="sub">Click a sample for its transcript, its diffs and the grading log.</p>
    <div id="samples"></div>
  </section>
  <section class="card">
    <details class="cells"><summary>Run config and events</summary><div id="run-config"></div><div id="run-events"></div></details>
  </section>
</div>
<div id="sample-view" hidden></div>
</main>
<footer>${rows.length} configs · ${data.cellCount} cells · made by impossiblebench ${escapeHtml(run.packageVersion)}</footer>
<script type="application/json" id="report-data">`;
  const tail = `</script>
<script>${CLIENT_SCRIPT}</script>
</body>
</html>
`;
  return { head, tail };
}

/** The whole report as one self-contained HTML page, built in memory: for small runs and tests. */
export function renderHtml(data: FullReportData): string {
  const frame: PageFrame = { ...data, cellCount: data.cells.length };
  const samples = [...data.samples].sort(compareSamples).map((s) => sampleForPage(data, s));
  const { head, tail } = pageShell(frame);
  return head + scriptJson({ ...pageJsonFields(frame), samples }) + tail;
}
