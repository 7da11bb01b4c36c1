import { UNGRADED } from '../inspect/log-kind.js';
import { askEach, type AskEachOptions } from '../ask-each.js';
import { askBatch, type AskBatchOptions } from '../ask-batch.js';
import type { PromptFile } from '../../core/text-file.js';
import type { ResultStore, StoredSample } from '../store.js';
import { monitorRequest, monitorSample, monitorVerdict } from './monitor.js';
import { MONITOR_EVENT, MONITOR_STATUSES, monitorVerdictsByKey, type MonitorStatus, type MonitorVerdict } from './verdict.js';

export interface MonitorRunOptions extends AskEachOptions {
  /** The monitor model's name, as its clients report it. */
  model: string;
  prompt: PromptFile;
  /** Every sample that has an outcome other than error, not only the passed ones. */
  all?: boolean;
  /** Score again samples this monitor (model and prompt) already scored. */
  redo?: boolean;
  /** Send the requests through the provider's batch API (half price, answered within a day) instead of one by one. */
  batch?: Omit<AskBatchOptions, 'job' | 'signal'>;
}

export interface MonitorRunSummary {
  /** Samples in scope: the passed ones, or with `all` every one that did not end in an error. */
  eligible: number;
  /** Already scored by this monitor and left alone. */
  skipped: number;
  /** Answers stored, by how they were read. */
  byStatus: Record<MonitorStatus, number>;
  inputTokens: number;
  outputTokens: number;
  /** Summed over this call's answers; null when one's price is unknown. */
  costUsd: number | null;
  /** Provider failures: nothing stored for these samples, so a rerun retries them. */
  failures: { taskId: string; error: string }[];
}

/** The samples a monitor reads: passes, or with `all` every sample an agent finished (infrastructure errors hold no work to review). */
export function monitorScope(store: ResultStore, runId: string, all = false): StoredSample[] {
  // An imported transcript without a grade is an error only so that no rate counts it: a monitor reads it.
  const readable = (s: StoredSample) => s.outcome !== 'error' || s.error?.startsWith(UNGRADED) === true;
  return all ? store.listSamples(runId).filter(readable) : store.listSamples(runId, { outcome: 'passed' });
}

/** Sample keys this monitor model and prompt already have a verdict for. */
function scoredKeys(store: ResultStore, runId: string, model: string, promptHash: string): Set<string> {
  const out = new Set<string>();
  for (const [key, verdicts] of monitorVerdictsByKey(store, runId)) {
    if (verdicts.some((v) => v.model === model && v.promptHash === promptHash)) out.add(key);
  }
  return out;
}

/** Asks the monitor about each sample in scope and stores each answer, however it was read, as an event of its sample. */
export async function monitorRun(store: ResultStore, runId: string, options: MonitorRunOptions): Promise<MonitorRunSummary> {
  const run = store.getRun(runId);
  const done = options.redo ? new Set<string>() : scoredKeys(store, run.id, options.model, options.prompt.sha256);
  const eligible = monitorScope(store, run.id, options.all);
  const todo = eligible.filter((s) => !done.has(s.keyString));
  const byStatus = Object.fromEntries(MONITOR_STATUSES.map((s) => [s, 0])) as Record<MonitorStatus, number>;
  const summary: MonitorRunSummary = {
    eligible: eligible.length,
    skipped: eligible.length - todo.length,
    byStatus,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    failures: [],
  };
  const keep = (verdict: MonitorVerdict, sample: StoredSample) => {
    store.addEvent(run.id, MONITOR_EVENT, verdict, sample.keyString);
    summary.byStatus[verdict.status]++;
    summary.inputTokens += verdict.inputTokens;
    summary.outputTokens += verdict.outputTokens;
    summary.costUsd = summary.costUsd === null || verdict.costUsd === null ? null : summary.costUsd + verdict.costUsd;
  };
  const { batch, prompt } = options;
  summary.failures = batch
    ? await askBatch(
        store,
        run.id,
        todo,
        {
          ...batch,
          job: `monitor ${options.model} ${prompt.sha256}${options.all ? ' all' : ''}`,
          ...(options.signal ? { signal: options.signal } : {}),
        },
        (sample) => monitorRequest(sample, prompt),
        (sample, g) => keep(monitorVerdict(batch.client.name, g, prompt, true), sample),
      )
    : await askEach(todo, options, async (client, sample, signal) => keep(await monitorSample(client, sample, prompt, signal), sample));
  return summary;
}
