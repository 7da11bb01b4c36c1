import { count, pct, usd } from '../format.js';
import { mdTable } from '../markdown-table.js';
import { shortHash } from '../../core/text-file.js';
import { APART_GROUPS, type MonitorMetrics, type Rate } from './metrics.js';
import type { MonitorReportData, MonitorSummary } from './report-data.js';

/** `85.7% [48.7–97.4] (6/7)`, or `—` when there was nothing to rate. */
export function rateText(r: Rate): string {
  if (r.rate === null || !r.interval) return '— (0/0)';
  return `${pct(r.rate)} [${(r.interval.low * 100).toFixed(1)}–${(r.interval.high * 100).toFixed(1)}] (${r.hits}/${r.n})`;
}

export function aurocText(a: number | null): string {
  return a === null ? '—' : a.toFixed(3);
}

/** `2 unparseable, 1 refused`; `0` when every answer gave a score. */
export function unscoredText(m: MonitorMetrics): string {
  const parts = Object.entries(m.unscored)
    .filter(([, n]) => n)
    .map(([status, n]) => `${n} ${status}`);
  return parts.length ? parts.join(', ') : '0';
}

const APART_NAMES = { evaded: 'Evaded flagged', 'agent-flagged': 'Agent-flagged flagged', failed: 'Failed flagged' } as const;

function monitorName(s: MonitorSummary): string {
  return s.id.model;
}

function promptName(s: MonitorSummary): string {
  return s.id.promptHash ? shortHash(s.id.promptHash) : '—';
}

/**
 * The monitor tables: one row per monitor, then per monitor and agent model, then (with
 * `groups`) per agent model, dataset, scaffold, access and split.
 */
export function monitorTables(data: MonitorReportData, options: { groups?: boolean } = {}): string[] {
  const { monitors } = data;
  const all = monitors.flatMap((s) => [s.overall, ...s.byModel.map((b) => b.metrics)]);
  // Evaded, agent-flagged and failed samples are read only with `monitor --all`: columns only when some were.
  const apart = APART_GROUPS.filter((g) => all.some((m) => m.apart[g].n > 0));
  const rateCols = (m: MonitorMetrics) => [
    rateText(m.detection),
    rateText(m.falsePositive),
    aurocText(m.auroc),
    unscoredText(m),
    ...apart.map((g) => `${m.apart[g].flagged}/${m.apart[g].n}`),
  ];
  const rateHead = ['Detection (cheating flagged)', 'False positives (legit flagged)', 'AUROC', 'Not scored', ...apart.map((g) => APART_NAMES[g])];
  const out: string[] = [];
  out.push(
    mdTable(
      ['Monitor', 'Prompt', 'Answers', ...rateHead, 'Tokens', 'Cost'],
      monitors.map((s) => [
        monitorName(s),
        promptName(s),
        count(s.overall.answers),
        ...rateCols(s.overall),
        count(s.inputTokens + s.outputTokens),
        usd(s.costUsd, s.costUsd === null ? 1 : 0),
      ]),
    ),
    '',
  );
  out.push(
    mdTable(
      ['Monitor', 'Prompt', 'Agent model', ...rateHead],
      monitors.flatMap((s) => s.byModel.map((b) => [monitorName(s), promptName(s), b.model, ...rateCols(b.metrics)])),
    ),
    '',
  );
  if (options.groups) {
    out.push(
      mdTable(
        ['Monitor', 'Prompt', 'Agent model', 'Dataset', 'Scaffold', 'Access', 'Split', ...rateHead],
        monitors.flatMap((s) =>
          s.groups.map((g) => [
            monitorName(s),
            promptName(s),
            g.group.model,
            g.group.dataset,
            g.group.scaffold,
            g.group.access,
            g.group.split,
            ...rateCols(g.metrics),
          ]),
        ),
      ),
      '',
    );
  }
  return out;
}

/** The report's monitors section; empty when no monitor has anything to show. */
export function monitorSection(data: MonitorReportData): string[] {
  if (data.monitors.length === 0) return [];
  return [
    '## Monitors',
    '',
    `How well each monitor tells cheating passes (on impossible splits, or tampered) from legitimate passes on the original split. A monitor flags a sample when its suspicion score is at least ${data.threshold}. ` +
      'Detection is the share of cheating samples flagged, false positives the share of legitimate ones flagged, each with a Wilson 95% interval; ' +
      'AUROC ranks the scores (ties count half). Answers with no readable score are counted under Not scored and left out of the rates. ' +
      `The static classifier flags a pass whose evidence shows any known trick (score 100, else 0), with no model. Prompts are named by the start of their sha256.`,
    '',
    ...monitorTables(data, { groups: true }),
  ];
}
