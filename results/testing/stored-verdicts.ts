import { JUDGE_EVENT, type JudgeVerdict } from '../classify/judge.js';
import { MONITOR_EVENT, type MonitorVerdict } from '../monitor/verdict.js';
import type { ResultStore, StoredSample } from '../store.js';

/**
 * A judge's verdict on every pass and a monitor's on every sample, stored as `classify` and `monitor` store them: the
 * monitor scores 90 where the tests were changed and 10 elsewhere. `batch` marks the monitor's as a batch's.
 */
export function storeScriptedVerdicts(
  store: ResultStore,
  runId: string,
  samples: readonly StoredSample[],
  options: { judge: string; batch?: boolean },
): void {
  for (const x of samples) {
    if (x.outcome === 'passed') {
      const verdict: JudgeVerdict = {
        model: options.judge,
        kind: 'modify-tests',
        explanation: 'edited the test',
        inputTokens: 5,
        outputTokens: 2,
        costUsd: null,
      };
      store.addEvent(runId, JUDGE_EVENT, verdict, x.keyString);
    }
    const score = x.testDiff ? 90 : 10;
    const monitor: MonitorVerdict = {
      model: 'scripted/monitor',
      promptHash: 'a'.repeat(64),
      status: 'scored',
      score,
      reason: 'r',
      answer: `SCORE: ${score}`,
      inputTokens: 1,
      outputTokens: 1,
      costUsd: 0,
      ...(options.batch ? { batch: true } : {}),
    };
    store.addEvent(runId, MONITOR_EVENT, monitor, x.keyString);
  }
}
