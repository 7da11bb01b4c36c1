import { describe, expect, it } from 'vitest';
import { testRunId } from '../../docker/testing.js';
import { FLAG_SENTINEL } from '../../scaffolds/prompts.js';
import { digitSumTask } from '../../scaffolds/testing/tasks.js';
import { honestCode, moduleWith } from '../policies/code.js';
import { getPolicy, POLICY_NAMES } from '../policies/index.js';
import type { Policy } from '../policy.js';
import { CLAUDE_CODE_INSTALL, CODEX_INSTALL, claudeCodeBinary, codexBinary } from '../testing/agent-binaries.js';
import { type CliName, runCliSample } from '../testing/cli-run.js';
import { useModelServer } from '../testing/model-server.js';

/**
 * The reference policies drive the real agent CLIs (Codex CLI, Claude Code) in sandboxes: the local model server
 * speaks each CLI's tool dialect, so a policy's calls become the CLI's tools and the CLI's results come back to it
 * as the full scaffold's plain output.
 */
const server = useModelServer();
const runId = testRunId('cli-dialect');

/** A policy that only ever calls a tool no CLI has. */
const unknownToolPolicy: Policy = {
  name: 'unknown-tool',
  next: () => ({ text: 'Trying a tool of my own.', toolCalls: [{ name: 'frobnicate', arguments: '{"level":3}' }] }),
};

/** Runs one command that outlives Codex's longest wait (30 s), then submits; keeps the result it was shown. */
function slowCommandPolicy(): Policy & { shown: string[] } {
  const shown: string[] = [];
  return {
    name: 'slow-command',
    shown,
    next(messages) {
      const results = messages.filter((m) => m.role === 'tool');
      if (results.length === 0)
        return { text: '', toolCalls: [{ name: 'bash', arguments: JSON.stringify({ command: 'echo started; sleep 33; echo finished; exit 3' }) }] };
      shown.push(results.at(-1)!.content);
      return { text: 'Done.', toolCalls: [{ name: 'submit', arguments: '{}' }] };
    },
  };
}

describe.each<CliName>(['codex', 'claude-code'])('%s driven by a reference policy', (cli) => {
  it('honest: writes the solution into func.py and ends, the CLI exiting 0', async () => {
    const task = digitSumTask('original');
    const run = await runCliSample(server, { cli, policy: getPolicy('honest'), task, runId });
    expect(run.cli.exitCode, run.cli.stderr).toBe(0);
    expect(run.func).toBe(moduleWith(task, honestCode(task)));
    expect(run.testRun.exitCode).toBe(0);
    // Two turns of the policy: write func.py, submit (Claude Code's Read before the Write is not one).
    expect(run.stats.answered).toBe(2);
    expect(run.stats.cli).toMatchObject({ dialect: cli, preparatoryCalls: cli === 'claude-code' ? 1 : 0 });
    expect(run.stats.cli?.stopped).toBeUndefined();
  });

  it('modify-tests: sees the failing run, edits test.py until it passes', async () => {
    const task = digitSumTask('oneoff');
    const run = await runCliSample(server, { cli, policy: getPolicy('modify-tests'), task, runId });
    expect(run.cli.exitCode, run.cli.stderr).toBe(0);
    expect(run.func).toBe(moduleWith(task, honestCode(task)));
    expect(run.test).not.toContain('candidate(123) == 7');
    expect(run.test).toContain('pass');
    expect(run.testRun.exitCode, run.testRun.stderr).toBe(0);
    // Read the test, write func.py, run (fails), remove the assertion, run (passes), submit.
    expect(run.stats.answered).toBe(6);
  });

  it('flag: ends with the abort phrase when the prompt offers it', async () => {
    const task = digitSumTask('conflicting');
    const run = await runCliSample(server, { cli, policy: getPolicy('flag'), task, runId, allowFlag: true });
    expect(run.cli.exitCode, run.cli.stderr).toBe(0);
    expect(run.stdout).toContain(FLAG_SENTINEL);
    expect(run.stats.answered).toBe(1);
  });

  it('a call to a tool the CLI does not have ends the conversation instead of looping', async () => {
    const task = digitSumTask('original');
    const run = await runCliSample(server, { cli, policy: unknownToolPolicy, task, runId });
    expect(run.cli.exitCode, run.cli.stderr).toBe(0);
    expect(run.stats.answered).toBe(2);
    expect(run.stats.cli?.stopped).toMatch(/frobnicate/);
    expect(run.func).toBe(task.prompt);
  });
});

describe('codex with a long command', () => {
  it('waits for a command still running after its 30 s and shows the policy one whole result', async () => {
    const policy = slowCommandPolicy();
    const run = await runCliSample(server, { cli: 'codex', policy, task: digitSumTask('original'), runId });
    expect(run.cli.exitCode, run.cli.stderr).toBe(0);
    expect(policy.shown).toEqual(['started\nfinished\n[exit code: 3]']);
    expect(run.stats).toMatchObject({ answered: 2, cli: { preparatoryCalls: 1 } });
  });
});

describe.each<CliName>(['codex', 'claude-code'])('every reference policy through %s', (cli) => {
  it('plays to its end on an impossible task: the CLI exits 0, the server never has to stop it', async () => {
    const task = digitSumTask('oneoff');
    const outcomes: string[] = [];
    for (const name of POLICY_NAMES) {
      const run = await runCliSample(server, { cli, policy: getPolicy(name), task, runId, allowFlag: name === 'flag' });
      const wrote = run.func !== task.prompt;
      outcomes.push(
        `${name}: exit ${run.cli.exitCode}, ${run.stats.cli?.stopped ?? 'ended by the policy'}, func.py ${wrote ? 'written' : 'as given'}`,
      );
    }
    const written = (name: string) => (name === 'flag' || name === 'give-up' ? 'as given' : 'written');
    expect(outcomes).toEqual(POLICY_NAMES.map((name) => `${name}: exit 0, ended by the policy, func.py ${written(name)}`));
    // One CLI run per policy, each in a sandbox of its own.
  }, 600_000);
});

describe('the binaries these tests need', () => {
  it('are an error naming the install command when missing, so the tests fail instead of skipping', () => {
    expect(() => codexBinary('/nonexistent-global-root')).toThrow(CODEX_INSTALL);
    expect(() => claudeCodeBinary('/nonexistent-global-root')).toThrow(CLAUDE_CODE_INSTALL);
  });
});

describe.each<CliName>(['codex', 'claude-code'])('%s through the recording proxy, as the scaffold runs it', (cli) => {
  it('honest: the proxy records every request the server answered', async () => {
    const task = digitSumTask('original');
    const run = await runCliSample(server, { cli, policy: getPolicy('honest'), task, runId, viaProxy: true });
    expect(run.cli.exitCode, run.cli.stderr).toBe(0);
    expect(run.func).toBe(moduleWith(task, honestCode(task)));
    expect(run.stats.answered).toBe(2);
    expect(run.exchanges?.map((e) => e.status)).toEqual(Array.from({ length: run.stats.requests }, () => 200));
  });
});
