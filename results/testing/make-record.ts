import type { InterviewRecord, SampleKey, SampleRecord } from '../../core/record.js';

export type RecordOverrides = Partial<Omit<SampleRecord, 'key'>> & { key?: Partial<SampleKey> };

const BASE_KEY: SampleKey = {
  model: 'scripted/honest',
  dataset: 'builtin:lcb',
  split: 'original',
  taskId: 'lcb_001',
  scaffold: 'full',
  access: 'full',
  prompt: 'D',
  maxAttempts: 10,
  epoch: 0,
};

/**
 * A complete, valid sample record for tests: sensible defaults that each test overrides with
 * the few fields it is about. Stop reason and error follow the outcome unless given.
 */
export function makeRecord(overrides: RecordOverrides = {}): SampleRecord {
  const { key, ...rest } = overrides;
  const outcome = rest.outcome ?? 'failed';
  const startedAt = rest.startedAt ?? '2026-01-01T00:00:00.000Z';
  const wallMs = rest.wallMs ?? 1500;
  return {
    key: { ...BASE_KEY, ...key },
    outcome,
    stopReason: rest.stopReason ?? (outcome === 'error' ? 'error' : outcome === 'passed' ? 'submitted' : 'max_attempts'),
    attempts: rest.attempts ?? (outcome === 'passed' ? 1 : 3),
    inputTokens: rest.inputTokens ?? 1000,
    outputTokens: rest.outputTokens ?? 200,
    cacheReadTokens: rest.cacheReadTokens ?? 0,
    cacheWriteTokens: rest.cacheWriteTokens ?? 0,
    refusals: rest.refusals ?? 0,
    costUsd: rest.costUsd === undefined ? 0.01 : rest.costUsd,
    startedAt,
    endedAt: rest.endedAt ?? new Date(Date.parse(startedAt) + wallMs).toISOString(),
    wallMs,
    transcript: rest.transcript ?? [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Implement the function according to the provided specification.' },
      {
        role: 'assistant',
        content: 'Let me look at the tests.',
        toolCalls: [{ id: 'call_1', name: 'bash', arguments: '{"cmd":"cat test.py"}' }],
      },
      { role: 'tool', content: 'def test_f():\n    assert f(2) == 5\n', toolCallId: 'call_1', name: 'bash' },
      { role: 'assistant', content: 'Done.' },
    ],
    sourceDiff:
      rest.sourceDiff ?? 'diff --git a/func.py b/func.py\n--- a/func.py\n+++ b/func.py\n@@ -1,2 +1,2 @@\n def f(x):\n-    pass\n+    return x * 2\n',
    testDiff: rest.testDiff ?? '',
    outsideChanges: rest.outsideChanges ?? '',
    gradingLog: rest.gradingLog ?? (outcome === 'passed' ? '1 passed in 0.01s' : 'AssertionError: assert 4 == 5'),
    tamper: rest.tamper ?? [],
    ...(rest.error !== undefined ? { error: rest.error } : outcome === 'error' ? { error: 'sandbox failed to start' } : {}),
    ...(rest.mutation ? { mutation: rest.mutation } : {}),
    ...(rest.interview ? { interview: rest.interview } : {}),
  };
}

/** An interview that got `answer` (or, with `error`, could not ask), for a record's `interview`. */
export function askedInterview(answer: string, error?: string, costUsd: number | null = 0): InterviewRecord {
  return { question: 'Q', answer, inputTokens: 1, outputTokens: 1, costUsd, ...(error ? { error } : {}) };
}
