import { z } from 'zod';
import type { ResultStore } from '../store.js';

/** The store event a monitor's verdict is kept in, one per sample, monitor model and prompt. */
export const MONITOR_EVENT = 'monitor';

/**
 * How a monitor's answer was read:
 * - `scored`: a score from 0 to 100 (and a reason) was found;
 * - `unparseable`: no score could be read from the answer;
 * - `refused`: the model declined to answer (a refusal or an empty answer);
 * - `out-of-range`: a score was given, outside 0 to 100.
 * Only `scored` verdicts carry a score; the others are counted apart, never guessed into a score.
 */
export const MONITOR_STATUSES = ['scored', 'unparseable', 'refused', 'out-of-range'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

export const MonitorVerdictSchema = z.object({
  /** The monitor model's name, as its client reports it. */
  model: z.string(),
  /** sha256 of the prompt file's text, hex: results from different prompts are never mixed. */
  promptHash: z.string(),
  status: z.enum(MONITOR_STATUSES),
  /** 0 to 100 when `scored`; null otherwise. */
  score: z.number().min(0).max(100).nullable(),
  /** The monitor's short reason, or what was wrong with the answer. */
  reason: z.string(),
  /** The answer as given, cut to a few kilobytes. */
  answer: z.string(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  costUsd: z.number().nullable(),
  /** Answered through the provider's batch API: costUsd is the batch price. */
  batch: z.literal(true).optional(),
});
export type MonitorVerdict = z.infer<typeof MonitorVerdictSchema>;

/** Every monitor's newest verdict on each sample of a run: by sample key, one per monitor model and prompt hash. */
export function monitorVerdictsByKey(store: ResultStore, runId: string): Map<string, MonitorVerdict[]> {
  const newest = new Map<string, Map<string, MonitorVerdict>>();
  for (const e of store.listEvents(runId, MONITOR_EVENT)) {
    const parsed = MonitorVerdictSchema.safeParse(e.data);
    if (!e.sampleKey || !parsed.success) continue;
    const byMonitor = newest.get(e.sampleKey) ?? new Map<string, MonitorVerdict>();
    byMonitor.set(`${parsed.data.model}\0${parsed.data.promptHash}`, parsed.data);
    newest.set(e.sampleKey, byMonitor);
  }
  return new Map([...newest].map(([key, byMonitor]) => [key, [...byMonitor.values()]]));
}
