import { afterEach, describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../core/record.js';
import { AGENT_USER } from '../../core/sandbox.js';
import { PYTHON_IMAGE } from '../../docker/image-names.js';
import { sandboxBackend } from '../../docker/backends.js';
import { testRunId } from '../../docker/testing.js';
import type { Sandbox } from '../../docker/types.js';
import { PriceTable } from '../../models/prices.js';
import type { Policy } from '../policy.js';
import { CONTEXT } from '../testing/echo.js';
import { useModelServer } from '../testing/model-server.js';
import { RecordingProxy } from '../../scaffolds/agent-cli/proxy.js';
import type { AgentApi } from '../../scaffolds/agent-cli/replies.js';
import { claudeBinary, codexBinary } from '../../scaffolds/agent-cli/testing/cli-binaries.js';
import { exchangesToTranscript } from '../../scaffolds/agent-cli/transcript.js';

/**
 * The transcript of a real Codex CLI and a real Claude Code run, each inside a sandbox made as a CLI sample's, its
 * traffic through the recording proxy to the local model server: the commands show as the program sent them, in the
 * order it ran them, each followed by its output; the system prompt and the task once.
 */
const runId = testRunId('transcript-cli');
const PORT = 8377;
const PROMPT = 'Make test.py pass.';
const COMMANDS = ['ls -la /work', 'echo hello > /work/x.txt && cat /work/x.txt'];
const server = useModelServer();
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0).reverse()) await done();
});

/**
 * Runs the two commands through the bash tool of the full scaffold's view, which the server's dialects turn into the
 * program's own shell tool (`exec_command` or `Bash`), then stops.
 */
const twoCommands: Policy = {
  name: 'two-commands',
  next(messages, tools) {
    if (!tools.some((t) => t.name === 'bash')) return { text: 'No shell offered.' };
    const ran = messages.filter((m) => m.role === 'tool').length;
    const command = COMMANDS[ran];
    if (!command) return { text: 'All done.' };
    return { text: `Step ${ran + 1}.`, toolCalls: [{ name: 'bash', arguments: JSON.stringify({ command }) }] };
  },
};

async function cliSample(api: AgentApi, binary: string, sampleId: string): Promise<{ sandbox: Sandbox; proxy: RecordingProxy }> {
  const token = server.openSession(twoCommands, CONTEXT);
  const proxy = new RecordingProxy({
    api,
    upstream: api === 'anthropic' ? server.anthropicBaseUrl : server.openaiBaseUrl,
    apiKey: token,
    model: 'x/cli',
    prices: new PriceTable(),
    limits: {},
  });
  await proxy.start();
  cleanup.push(() => proxy.close());
  const sandbox = await sandboxBackend().create({
    image: PYTHON_IMAGE,
    runId,
    sampleId,
    readOnlyFiles: [{ source: binary, target: '/opt/agent/bin/agent' }],
  });
  cleanup.push(() => sandbox.destroy());
  await sandbox.forwardPort!(PORT, proxy.connect);
  await sandbox.exec(`mkdir -p /work /home/${AGENT_USER}/state && chown -R ${AGENT_USER} /work /home/${AGENT_USER}`);
  return { sandbox, proxy };
}

/** The calls in transcript order, each with the output that answered it (by id). */
function callsWithOutputs(transcript: TranscriptMessage[]): { name: string; args: unknown; output: string }[] {
  const outputs = new Map(transcript.filter((m) => m.role === 'tool').map((m) => [m.toolCallId, m.content]));
  return transcript.flatMap((m) =>
    (m.toolCalls ?? []).map((c) => ({ name: c.name, args: JSON.parse(c.arguments), output: outputs.get(c.id) ?? '' })),
  );
}

/** The program's system prompt (and Codex's developer messages) and the task show once each, before any call. */
function expectOpenedOnce(transcript: TranscriptMessage[], program: RegExp): void {
  const system = transcript.filter((m) => m.role === 'system').map((m) => m.content);
  expect(system[0]).toMatch(program);
  expect(new Set(system).size).toBe(system.length);
  expect(transcript.findLastIndex((m) => m.role === 'system')).toBeLessThan(transcript.findIndex((m) => m.toolCalls));
  expect(transcript.filter((m) => m.role === 'user' && m.content.trimEnd().endsWith(PROMPT))).toHaveLength(1);
  expect(transcript.at(-1)).toMatchObject({ role: 'assistant', content: 'All done.' });
  // One plain conversation: nothing taken for a side request, a failure or a restart.
  expect(transcript.filter((m) => m.name && m.name !== 'reasoning' && m.name !== 'developer')).toEqual([]);
}

describe('the transcript of a real agent program', () => {
  it('Codex CLI: exec_command calls as sent, each followed by its output', { timeout: 300_000 }, async () => {
    const { sandbox, proxy } = await cliSample('openai-responses', codexBinary(), 'codex');
    const provider = `model_providers.ib={name="ib", base_url="http://127.0.0.1:${PORT}/v1", env_key="IB_KEY", wire_api="responses"}`;
    const r = await sandbox.exec(
      ['/opt/agent/bin/agent', 'exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '-m', 'gpt-5-codex'].concat([
        '-c',
        provider,
        '-c',
        'model_provider="ib"',
        PROMPT,
      ]),
      { user: AGENT_USER, cwd: '/work', env: { CODEX_HOME: `/home/${AGENT_USER}/state`, IB_KEY: proxy.agentKey }, stdin: '', timeoutMs: 240_000 },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const transcript = exchangesToTranscript('openai-responses', proxy.exchanges);
    expect(callsWithOutputs(transcript)).toEqual([
      { name: 'exec_command', args: expect.objectContaining({ cmd: COMMANDS[0] }), output: expect.stringContaining('drwx') },
      { name: 'exec_command', args: expect.objectContaining({ cmd: COMMANDS[1] }), output: expect.stringMatching(/Output:\nhello\n/) },
    ]);
    expectOpenedOnce(transcript, /Codex/);
    expect(transcript.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual(['Step 1.', 'Step 2.', 'All done.']);
  });

  it('Claude Code: Bash calls as sent, each followed by its output', { timeout: 300_000 }, async () => {
    const { sandbox, proxy } = await cliSample('anthropic', claudeBinary(), 'claude');
    const r = await sandbox.exec(['/opt/agent/bin/agent', '-p', PROMPT, '--dangerously-skip-permissions', '--model', 'claude-sonnet-4-6'], {
      user: AGENT_USER,
      cwd: '/work',
      env: {
        HOME: `/home/${AGENT_USER}/state`,
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${PORT}`,
        ANTHROPIC_API_KEY: proxy.agentKey,
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
      stdin: '',
      timeoutMs: 240_000,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const transcript = exchangesToTranscript('anthropic', proxy.exchanges);
    expect(callsWithOutputs(transcript)).toEqual([
      { name: 'Bash', args: expect.objectContaining({ command: COMMANDS[0] }), output: expect.stringContaining('drwx') },
      { name: 'Bash', args: expect.objectContaining({ command: COMMANDS[1] }), output: expect.stringMatching(/^hello\n/) },
    ]);
    expectOpenedOnce(transcript, /Claude/);
    const main = transcript.filter((m) => m.role === 'assistant' && !m.name);
    expect(main.map((m) => m.content)).toEqual(['Step 1.', 'Step 2.', 'All done.']);
  });
});
