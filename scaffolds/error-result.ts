import type { Evidence } from './env/types.js';
import type { AgentRunResult } from './types.js';

/** No diffs and no outside changes: the evidence of a sample whose sandbox could not be read. */
export const NO_EVIDENCE: Evidence = { sourceDiff: '', testDiff: '', outsideChanges: '' };

/**
 * The record of a sample that failed outside the model before anything was counted: nothing graded, no usage, no
 * messages, no cost known. Our loops, the agent programs and the runner all build it here.
 */
export function errorResult(error: string, evidence: Evidence = NO_EVIDENCE): AgentRunResult {
  return {
    outcome: 'error',
    stopReason: 'error',
    attempts: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    refusals: 0,
    costUsd: null,
    transcript: [],
    sourceDiff: evidence.sourceDiff,
    testDiff: evidence.testDiff,
    outsideChanges: evidence.outsideChanges,
    gradingLog: '',
    tamper: [],
    error,
  };
}

/**
 * The agent's changes, or none when they could not be read: the graded outcome stands whatever becomes of the
 * evidence, and the failure is said in a note for the end of the grading log ('' when there is none).
 */
export async function readEvidence(read: () => Promise<Evidence>, describe: (err: unknown) => string): Promise<{ evidence: Evidence; note: string }> {
  try {
    const { sourceDiff, testDiff, outsideChanges, tamper } = await read();
    return { evidence: { sourceDiff, testDiff, outsideChanges, ...(tamper?.length ? { tamper } : {}) }, note: '' };
  } catch (err) {
    return { evidence: NO_EVIDENCE, note: `\n\n== evidence\nthe agent's changes could not be read: ${describe(err)}` };
  }
}

/** Every tamper sign of a sample, once each: its gradings', and for a graded sample those its final tree shows. */
export function sampleTamper(fromGradings: readonly string[], evidence: Evidence, graded: boolean): string[] {
  return [...new Set([...fromGradings, ...(graded ? (evidence.tamper ?? []) : [])])];
}
