import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { testRunId } from '../../docker/testing.js';
import type { Policy } from '../../simulated/policy.js';
import { useModelServer } from '../../simulated/testing/model-server.js';
import { digitSumTask } from '../../scaffolds/testing/tasks.js';
import { type AgentCliSpec, AgentCliSpecSchema } from '../../scaffolds/agent-cli/spec.js';
import { runCli } from '../testing/agent-cli-sample.js';

/**
 * How an agent program's run ends beyond its own exit: stopped mid-run at the disk limit (the real Codex CLI, its
 * shell filling the sandbox), and the ends that are the harness's failure rather than the model's, each with the
 * program's exit code and its last stderr lines in the record: a program that ends before its first model request,
 * and one the out-of-memory killer takes.
 */
const server = useModelServer();
const runId = testRunId('agent-cli-ends');
const MiB = 1024 ** 2;

/** Fills the disk past a 200 MiB limit in 100 MiB steps, then keeps its shell busy: only the disk limit ends it. */
const filler: Policy = {
  name: 'fill-the-disk',
  next: () => ({
    text: 'Making room for a cache.',
    toolCalls: [
      { name: 'bash', arguments: JSON.stringify({ command: 'for i in 1 2 3 4; do fallocate -l 100M /tmp/cache$i; done; sleep 8; echo filled' }) },
    ],
  }),
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ib-agent-cli-ends-'));
});

/** A program a config describes: a shell script shown read-only in the sandbox, reading its prompt on stdin. */
async function scriptProgram(name: string, script: string): Promise<AgentCliSpec> {
  const binary = join(dir, name);
  await writeFile(binary, `#!/bin/sh\n${script}\n`);
  await chmod(binary, 0o755);
  return AgentCliSpecSchema.parse({ name, binary, prompt: 'stdin', api: 'openai-chat', env: { OPENAI_API_KEY: '{{key}}' } });
}

describe('an agent program past the disk limit', () => {
  it('is stopped while it runs, ends as disk_limit and is not graded, as our loops do', async () => {
    const result = await runCli({
      server,
      runId,
      scaffold: 'codex',
      task: digitSumTask('original'),
      access: 'full',
      policy: filler,
      limits: { diskBytes: 200 * MiB, maxMessages: 100_000 },
    });
    expect([result.outcome, result.stopReason], result.gradingLog).toEqual(['failed', 'disk_limit']);
    expect(result.attempts).toBe(0);
    expect(result.gradingLog).not.toContain('== final state');
    expect(result.gradingLog).toMatch(/codex was stopped at the disk limit: the sandbox held more than the 200 MiB it may add/);
    // Stopped while it ran, not caught after it exited: an exited codex leaves its banner on stderr in the log.
    expect(result.gradingLog).not.toContain('-- stderr');
    // The program's traffic up to the stop is kept: the model asked for the command that filled the disk.
    const calls = result.transcript.flatMap((m) => m.toolCalls ?? []);
    expect(calls.some((c) => c.arguments.includes('fallocate'))).toBe(true);
    expect(result.inputTokens).toBeGreaterThan(0);
  }, 300_000);
});

describe('an agent program whose end is the harness’s failure', () => {
  it('is an error with its exit code and last stderr lines when it ends before asking the model', async () => {
    const program = await scriptProgram(
      'broken-agent',
      'echo "starting up"\nfor i in $(seq 1 40); do echo "loading plugin $i" >&2; done\necho "fatal: unknown setting --frobnicate" >&2\nexit 3',
    );
    const result = await runCli({ server, runId, scaffold: 'codex', program, task: digitSumTask('original'), access: 'full', policy: 'honest' });
    expect([result.outcome, result.stopReason]).toEqual(['error', 'error']);
    expect(result.attempts).toBe(0);
    expect(result.error).toMatch(/^agent program broken-agent exited with code 3 before its first model request; its last stderr lines:\n/);
    expect(result.error).toMatch(/loading plugin 40\nfatal: unknown setting --frobnicate$/);
    // Only the last lines: the start of a long stderr stays in the grading log.
    expect(result.error).not.toContain('loading plugin 5\n');
    expect(result.gradingLog).toContain('loading plugin 1\n');
  }, 120_000);

  it('says what the proxy refused when the program reaches it without its key', async () => {
    const request = [
      'import urllib.request',
      "req = urllib.request.Request('http://127.0.0.1:4141/v1/chat/completions', data=b'{}', headers={'Authorization': 'Bearer sk-wrong'})",
      'urllib.request.urlopen(req)',
    ].join('; ');
    const program = await scriptProgram('keyless-agent', `exec python3 -c "${request}"`);
    const result = await runCli({ server, runId, scaffold: 'codex', program, task: digitSumTask('original'), access: 'full', policy: 'honest' });
    expect([result.outcome, result.stopReason]).toEqual(['error', 'error']);
    expect(result.error).toMatch(
      /^agent program keyless-agent exited with code 1 before its first model request; the proxy refused its request to \/v1\/chat\/completions: the request did not carry the key this sample was given; its last stderr lines:\n[\s\S]*HTTP Error 401/,
    );
  }, 120_000);

  it('says so when the out-of-memory killer takes it', async () => {
    const program = await scriptProgram('hungry-agent', 'echo "allocating" >&2\nexec python3 -c "b = bytearray(600 * 1024 * 1024)"');
    const result = await runCli({
      server,
      runId,
      scaffold: 'codex',
      program,
      task: digitSumTask('original'),
      access: 'full',
      policy: 'honest',
      memoryBytes: 256 * MiB,
    });
    expect([result.outcome, result.stopReason]).toEqual(['error', 'error']);
    expect(result.error).toMatch(
      /^agent program hungry-agent was killed by the out-of-memory killer \(exit code 137\): the sandbox's memory limit was reached; its last stderr lines:\nallocating/,
    );
    expect(result.gradingLog).toMatch(/hungry-agent was killed by the out-of-memory killer/);
  }, 120_000);

  it('names the signal that killed it', async () => {
    const program = await scriptProgram('crashing-agent', 'echo "segfault ahead" >&2\nkill -SEGV $$');
    const result = await runCli({ server, runId, scaffold: 'codex', program, task: digitSumTask('original'), access: 'full', policy: 'honest' });
    expect(result.outcome).toBe('error');
    expect(result.error).toMatch(
      /^agent program crashing-agent was killed by SIGSEGV \(exit code 139\) before its first model request; its last stderr lines:\nsegfault ahead\n/,
    );
  }, 120_000);
});

describe('an agent program that fails on its own after asking its model', () => {
  it('is graded as it left the work, stop reason program_failed, with how it ended in the grading log', async () => {
    const request = [
      'import json, os, urllib.request',
      "body = json.dumps({'model': 'gpt-5', 'messages': [{'role': 'user', 'content': 'hi'}]}).encode()",
      "req = urllib.request.Request('http://127.0.0.1:4141/v1/chat/completions', data=body, headers={'Authorization': 'Bearer ' + os.environ['OPENAI_API_KEY'], 'Content-Type': 'application/json'})",
      'urllib.request.urlopen(req).read()',
    ].join('\n');
    const program = await scriptProgram('flaky-agent', `python3 - <<'PY' || exit 9\n${request}\nPY\necho "lost my state" >&2\nexit 2`);
    const result = await runCli({ server, runId, scaffold: 'codex', program, task: digitSumTask('original'), access: 'full', policy: 'honest' });
    expect([result.outcome, result.stopReason], result.error ?? result.gradingLog).toEqual(['failed', 'program_failed']);
    expect(result.error).toBeUndefined();
    expect(result.inputTokens).toBeGreaterThan(0);
    expect(result.gradingLog).toMatch(/flaky-agent exited with code 2/);
    expect(result.gradingLog).toContain('lost my state');
  }, 120_000);
});
