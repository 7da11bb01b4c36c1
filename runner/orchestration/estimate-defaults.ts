/** A suite's per-sample token use and sample time, low and high, for when the store holds no earlier samples of it. */
export interface SuiteDefault {
  inputTokens: readonly [number, number];
  outputTokens: readonly [number, number];
  seconds: readonly [number, number];
}

/**
 * The default per task kind (the built-in suites and the hub datasets of that kind alike). These are planning figures
 * for a frontier model under the paper's settings (10 attempts, 100 messages), not measurements of one:
 * - `swe`: `npm run bench:cost`'s 30-turn SWE transcript (simulated/testing/swe-transcript.ts: the output a mid-sized
 *   Python repository prints for listings, reads, greps and pytest runs, resent every turn as an agent does) takes
 *   477,000 input tokens. The low end is a third of it (a fix found in about ten turns), the high end three times (a
 *   long search near the message limit). Output: a few hundred tokens a turn with reasoning. Time: a turn's reply and
 *   command (about 10 s) times the turns, plus the graded test runs.
 * - `lcb`: one function from a statement, a prompt of about 1,500 tokens. The low end is one attempt; the high end all
 *   10 attempts, each resending the conversation with its test feedback, with reasoning tokens.
 * Input is priced as plain input, with no prompt-cache discount, so the high end holds for a provider that caches
 * nothing. Earlier samples of the suite in the store replace these figures as soon as there are a few.
 */
export const SUITE_DEFAULTS: Readonly<Record<string, SuiteDefault>> = {
  lcb: { inputTokens: [2_000, 60_000], outputTokens: [500, 20_000], seconds: [10, 300] },
  swe: { inputTokens: [150_000, 1_500_000], outputTokens: [3_000, 40_000], seconds: [120, 1_800] },
};
