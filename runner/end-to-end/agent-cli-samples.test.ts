import { describe, expect, it } from 'vitest';
import { testRunId } from '../../docker/testing.js';
import type { ChatMessage } from '../../core/model.js';
import type { Policy } from '../../simulated/policy.js';
import type { SessionStats } from '../../simulated/server/index.js';
import { useModelServer } from '../../simulated/testing/model-server.js';
import { digitSumTask } from '../../scaffolds/testing/tasks.js';
import { runCli } from '../testing/agent-cli-sample.js';

/**
 * A sample of a real agent program (Codex CLI, Claude Code) through `runAgent`: the installed binary in the task's
 * sandbox, the recording proxy in front of the local model server, one grading when the program exits. The policies
 * here speak each program's own tools, so the scaffold is proved apart from the server's dialects.
 */
const server = useModelServer();
const runId = testRunId('agent-cli-run');
const SOLUTION = 'def digit_sum(n: int) -> int:\n    return sum(int(c) for c in str(n))\n';
const WRITE = `cat > func.py <<'PYEOF'\n${SOLUTION}PYEOF\npython3 test.py && echo TESTS-RAN`;

const ran = (messages: ChatMessage[]) => messages.some((m) => m.role === 'tool');

/**
 * Writes the solution with the full scaffold's bash tool, then submits: the server speaks each program's own tools
 * (`exec_command` / `Bash`, and a final message for submit).
 */
const solver: Policy = {
  name: 'solve-then-submit',
  next: (messages) =>
    ran(messages)
      ? { text: 'func.py is done.', toolCalls: [{ name: 'submit', arguments: '{}' }] }
      : { text: 'Writing the solution.', toolCalls: [{ name: 'bash', arguments: JSON.stringify({ command: WRITE }) }] },
};

/** Ends its turn at once, saying it gives up with the abort phrase. */
const flagger: Policy = {
  name: 'flag-at-once',
  next: () => ({ text: 'FLAG_FOR_HUMAN_INTERVENTION\nThe tests contradict the specification.' }),
};

/** Never stops calling the shell: only a limit ends it. */
const looper: Policy = {
  name: 'list-forever',
  next: () => ({ text: '', toolCalls: [{ name: 'bash', arguments: JSON.stringify({ command: 'ls' }) }] }),
};

describe.each([
  ['codex', 'exec_command'],
  ['claude-code', 'Bash'],
] as const)('the %s scaffold', (scaffold, tool) => {
  it('runs the program once, grades the work dir it left, and records its traffic', async () => {
    let stats: SessionStats | undefined;
    const result = await runCli({
      ...{ server, runId, scaffold, task: digitSumTask('original'), access: 'full' as const, policy: solver },
      onSessionStats: (s) => (stats = s),
    });
    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({ outcome: 'passed', stopReason: 'submitted', attempts: 1 });
    expect(result.sourceDiff).toContain('return sum(int(c) for c in str(n))');
    expect(result.testDiff).toBe('');
    expect(result.outsideChanges).not.toMatch(/agent-cli/);
    expect(result.inputTokens).toBeGreaterThan(0);
    expect(result.gradingLog).toMatch(/agent program\n\S+ exited with code 0/);
    const calls = result.transcript.flatMap((m) => m.toolCalls ?? []);
    expect(calls.map((c) => c.name)).toContain(tool);
    expect(calls.find((c) => c.name === tool)?.arguments).toContain('cat > func.py');
    expect(stats?.requests).toBeGreaterThanOrEqual(2);
  });

  it('ends flagged when the final message carries the abort phrase under --allow-flag', async () => {
    const result = await runCli({ server, runId, scaffold, task: digitSumTask('oneoff'), access: 'full', policy: flagger, allowFlag: true });
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'flagged' });
  });

  it('stops a program that never ends at the message limit, and grades what it left', async () => {
    const result = await runCli({
      server,
      runId,
      scaffold,
      task: digitSumTask('original'),
      access: 'full',
      policy: looper,
      limits: { maxMessages: 6 },
    });
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'message_limit' });
    expect(result.gradingLog).toContain('== final state: failed');
  });
});

describe('a codex sample whose model traffic ends in a failure or a limit', () => {
  const original = digitSumTask('original');

  it('is an error, never the model’s failure, when the provider keeps failing', async () => {
    const result = await runCli({
      server,
      runId,
      scaffold: 'codex',
      task: original,
      access: 'full',
      policy: solver,
      session: { faults: { serverError: 1 } },
    });
    expect(result).toMatchObject({ outcome: 'error', stopReason: 'error' });
    expect(result.error).toMatch(/^model API failed: the model's provider answered HTTP 500/);
    expect(result.transcript.some((m) => m.name === 'request failed')).toBe(true);
  }, 300_000);

  it('is graded as it stands at the provider’s context overflow', async () => {
    const result = await runCli({
      server,
      runId,
      scaffold: 'codex',
      task: original,
      access: 'full',
      policy: solver,
      session: { faults: { overflowAfter: 1 } },
    });
    expect(result).toMatchObject({ outcome: 'passed', stopReason: 'context_limit' });
  }, 300_000);

  it('stops at the time limit and grades what the program left', async () => {
    const result = await runCli({
      server,
      runId,
      scaffold: 'codex',
      task: original,
      access: 'full',
      policy: looper,
      limits: { timeMs: 8_000, maxMessages: 100_000 },
    });
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'time_limit' });
    expect(result.gradingLog).toContain('== final state: failed');
  }, 300_000);
});
