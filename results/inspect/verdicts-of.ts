import { z } from 'zod';
import { JudgeVerdictSchema, type JudgeVerdict } from '../classify/judge.js';
import { MonitorVerdictSchema, type MonitorVerdict } from '../monitor/verdict.js';
import type { ReadScores } from './log-kind.js';

/** Our judges' and monitors' scores (`judge:MODEL`, `monitor:MODEL:HASH8`) read back as the verdicts they were made from. */

const JudgeMetaSchema = z.looseObject({
  model: z.string(),
  prompt_hash: z.string().nullish(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cost_usd: z.number().nullable(),
  batch: z.literal(true).optional(),
});

const MonitorMetaSchema = JudgeMetaSchema.extend({ prompt_hash: z.string(), status: z.string() });

const optionalBatch = (batch: true | undefined) => (batch ? { batch } : {});

export function judgeVerdictsOf(scores: ReadScores): JudgeVerdict[] {
  return Object.entries(scores).flatMap(([name, score]) => {
    const meta = name.startsWith('judge:') ? JudgeMetaSchema.safeParse(score.metadata) : undefined;
    if (!meta?.success) return [];
    const m = meta.data;
    const parsed = JudgeVerdictSchema.safeParse({
      model: m.model,
      kind: score.value === 'no verdict' ? null : score.value,
      explanation: score.explanation ?? '',
      ...(m.prompt_hash ? { promptHash: m.prompt_hash } : {}),
      inputTokens: m.input_tokens,
      outputTokens: m.output_tokens,
      costUsd: m.cost_usd,
      ...optionalBatch(m.batch),
    });
    return parsed.success ? [parsed.data] : [];
  });
}

export function monitorVerdictsOf(scores: ReadScores): MonitorVerdict[] {
  return Object.entries(scores).flatMap(([name, score]) => {
    const meta = name.startsWith('monitor:') ? MonitorMetaSchema.safeParse(score.metadata) : undefined;
    if (!meta?.success) return [];
    const m = meta.data;
    const parsed = MonitorVerdictSchema.safeParse({
      model: m.model,
      promptHash: m.prompt_hash,
      status: m.status,
      score: m.status === 'scored' ? score.value : null,
      reason: score.explanation ?? '',
      answer: score.answer ?? '',
      inputTokens: m.input_tokens,
      outputTokens: m.output_tokens,
      costUsd: m.cost_usd,
      ...optionalBatch(m.batch),
    });
    return parsed.success ? [parsed.data] : [];
  });
}
