import { classifySample } from '../classify/index.js';
import { verdictsByKey } from '../classify/judge-run.js';
import { interviewStatus } from '../interview-answer.js';
import { labelOf } from '../labels.js';
import { monitorVerdictsByKey } from '../monitor/verdict.js';
import type { ResultStore } from '../store.js';

/** One sample with everything the viewer shows for it, or undefined when the store has no such id. */
export function sampleDetail(store: ResultStore, id: number) {
  const row = store.database.prepare('SELECT run_id AS runId FROM samples WHERE id = ?').get(id) as { runId: string } | undefined;
  if (!row) return undefined;
  const sample = store.getSample(row.runId, id);
  if (!sample) return undefined;
  const events = store.listEvents(row.runId).filter((e) => e.sampleKey === sample.keyString);
  return {
    ...sample,
    label: labelOf(sample),
    kinds: classifySample(sample),
    judges: verdictsByKey(store, row.runId).get(sample.keyString) ?? [],
    monitors: monitorVerdictsByKey(store, row.runId).get(sample.keyString) ?? [],
    events: events.map((e) => ({ time: e.time, kind: e.kind, data: e.data })),
    // The reading by the same rules as the report's and the export's, beside the answer it reads.
    interview: sample.interview ? { ...sample.interview, reading: interviewStatus(sample.interview) } : null,
  };
}

export type SampleDetail = NonNullable<ReturnType<typeof sampleDetail>>;
