import { IMPOSSIBLE_VARIANTS } from '../../core/record.js';
import { askEach, type AskEachOptions } from '../ask-each.js';
import { askBatch, type AskBatchOptions } from '../ask-batch.js';
import type { ResultStore, StoredSample } from '../store.js';
import { isClassifiable } from './classify.js';
import { classifySample } from './sync.js';
import type { PromptFile } from '../../core/text-file.js';
import {
  JUDGE_EVENT,
  JudgeVerdictSchema,
  judgeRequest,
  judgeSample,
  judgeVerdict,
  shippedJudgePrompt,
  type JudgeKind,
  type JudgeVerdict,
} from './judge.js';

export interface JudgeRunOptions extends AskEachOptions {
  /** The judge model's name, as its clients report it. */
  model: string;
  /** The judge's instructions; default the shipped prompt. */
  prompt?: PromptFile;
  /** Judge again samples this model already judged with this prompt. */
  redo?: boolean;
  /** Send the requests through the provider's batch API (half price, answered within a day) instead of one by one. */
  batch?: Omit<AskBatchOptions, 'job' | 'signal'>;
}

export interface JudgeRunSummary {
  /** Cheating or evaded samples in the run. */
  eligible: number;
  /** Already judged by this model and left alone. */
  skipped: number;
  judged: number;
  byKind: Partial<Record<JudgeKind, number>>;
  /** Answers that named no category. */
  unparsed: number;
  /** Verdicts whose kind the evidence classifier also found (`other` agrees with `other`). */
  agreeing: number;
  /** Provider failures: nothing stored for these samples, so a rerun retries them. */
  failures: { taskId: string; error: string }[];
}

/**
 * The judge verdicts stored for a run, by sample key, the newest per key and model; with
 * `promptHash`, only those given with that prompt (verdicts that name none were given with the shipped one).
 */
export function storedVerdicts(store: ResultStore, runId: string, model?: string, promptHash?: string): Map<string, JudgeVerdict> {
  const out = new Map<string, JudgeVerdict>();
  for (const e of store.listEvents(runId, JUDGE_EVENT)) {
    const parsed = JudgeVerdictSchema.safeParse(e.data);
    if (!e.sampleKey || !parsed.success || (model !== undefined && parsed.data.model !== model)) continue;
    if (promptHash !== undefined && (parsed.data.promptHash ?? shippedJudgePrompt().sha256) !== promptHash) continue;
    out.set(e.sampleKey, parsed.data);
  }
  return out;
}

/** Every judge's newest verdict on each sample: by sample key, one per judge model. */
export function verdictsByKey(store: ResultStore, runId: string): Map<string, JudgeVerdict[]> {
  const newest = new Map<string, Map<string, JudgeVerdict>>();
  for (const e of store.listEvents(runId, JUDGE_EVENT)) {
    const parsed = JudgeVerdictSchema.safeParse(e.data);
    if (!e.sampleKey || !parsed.success) continue;
    const byModel = newest.get(e.sampleKey) ?? new Map<string, JudgeVerdict>();
    byModel.set(parsed.data.model, parsed.data);
    newest.set(e.sampleKey, byModel);
  }
  return new Map([...newest].map(([key, byModel]) => [key, [...byModel.values()]]));
}

function agrees(verdict: JudgeVerdict, sample: StoredSample): boolean {
  const kinds = (classifySample(sample) ?? []).map((f) => f.kind);
  return verdict.kind !== null && kinds.includes(verdict.kind);
}

/** Asks the judge about every cheating or evaded sample of a run and stores each verdict as an event of its sample. */
export async function judgeRun(store: ResultStore, runId: string, options: JudgeRunOptions): Promise<JudgeRunSummary> {
  const run = store.getRun(runId);
  const prompt = options.prompt ?? shippedJudgePrompt();
  const done = options.redo ? new Map<string, JudgeVerdict>() : storedVerdicts(store, run.id, options.model, prompt.sha256);
  const eligible = [
    ...store.listSamples(run.id, { outcome: 'evaded' }),
    ...IMPOSSIBLE_VARIANTS.flatMap((split) => store.listSamples(run.id, { outcome: 'passed', split })),
  ].filter(isClassifiable);
  const todo = eligible.filter((s) => !done.has(s.keyString));
  const summary: JudgeRunSummary = {
    eligible: eligible.length,
    skipped: eligible.length - todo.length,
    judged: 0,
    byKind: {},
    unparsed: 0,
    agreeing: 0,
    failures: [],
  };
  const keep = (verdict: JudgeVerdict, sample: StoredSample) => {
    store.addEvent(run.id, JUDGE_EVENT, verdict, sample.keyString);
    summary.judged++;
    if (verdict.kind === null) summary.unparsed++;
    else summary.byKind[verdict.kind] = (summary.byKind[verdict.kind] ?? 0) + 1;
    if (agrees(verdict, sample)) summary.agreeing++;
  };
  const { batch } = options;
  summary.failures = batch
    ? await askBatch(
        store,
        run.id,
        todo,
        { ...batch, job: `judge ${options.model} ${prompt.sha256}`, ...(options.signal ? { signal: options.signal } : {}) },
        (sample) => judgeRequest(sample, prompt),
        (sample, g) => keep(judgeVerdict(batch.client.name, g, prompt, true), sample),
      )
    : await askEach(todo, options, async (client, sample, signal) => keep(await judgeSample(client, sample, signal, prompt), sample));
  return summary;
}
