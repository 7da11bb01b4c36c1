import type { z } from 'zod';
import { ModelApiError } from '../core/model.js';

/**
 * The lines of a batch's results file, each checked against `schema`: a line that is not what the provider documents
 * fails with its line number and the field that is wrong, never read as a verdict.
 */
export function readBatchLines<T>(text: string, schema: z.ZodType<T>, what: string): T[] {
  const out: T[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      throw new ModelApiError(`${what}, line ${i + 1}: not JSON`, undefined, 1);
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ModelApiError(`${what}, line ${i + 1}: ${issue?.path.join('.') || '(line)'}: ${issue?.message ?? 'invalid'}`, undefined, 1);
    }
    out.push(parsed.data);
  });
  return out;
}

/** The error text of a failed request, from whatever the provider said. */
export function failureText(error: unknown): string {
  if (error && typeof error === 'object') {
    const e = error as { message?: unknown; error?: { message?: unknown } };
    if (typeof e.message === 'string') return e.message;
    if (typeof e.error?.message === 'string') return e.error.message;
  }
  return JSON.stringify(error);
}
