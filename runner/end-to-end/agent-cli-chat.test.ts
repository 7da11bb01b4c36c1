import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../results/store.js';
import { assertBuilt, cli } from '../testing/cli.js';

/**
 * An agent program that speaks Chat Completions, described by a config and run through `impossiblebench run`: a small
 * Python agent (runner/testing/chat-agent.py, run by the sandbox's own Python) streams its turns through the recording
 * proxy with tool calls, and the sample is graded, its transcript showing each request's news, each reply and the
 * commands the program ran for it.
 */
const AGENT = fileURLToPath(new URL('../testing/chat-agent.py', import.meta.url));
let dir: string;
beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'ib-agent-cli-chat-'));
});

describe('a Chat Completions agent program a config describes', () => {
  it('runs under its scaffold name, its tool calls carried out and recorded, and is graded', async () => {
    const chatAgent = {
      name: 'chat-agent',
      binary: AGENT,
      prompt: 'stdin',
      api: 'openai-chat',
      env: { CHAT_AGENT_BASE_URL: '{{baseUrl}}/v1', CHAT_AGENT_KEY: '{{key}}', CHAT_AGENT_MODEL: '{{model}}' },
    };
    const config = join(dir, 'chat.json');
    await writeFile(
      config,
      JSON.stringify({ models: ['scripted/modify-tests'], splits: ['oneoff'], scaffolds: ['chat-agent'], agentClis: [chatAgent] }),
    );
    const store = join(dir, 'chat.sqlite');
    const r = await cli(['run', '--config', config, '--dataset', 'builtin:lcb', '--limit', '1', '--run-id', 'chat', '--store', store, '--plain'], {
      timeout: 600_000,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const db = openStore(store, { mustExist: true });
    try {
      const [sample, ...rest] = db.listSamples('chat');
      expect(rest).toEqual([]);
      // modify-tests on a one-off split: it reads the tests, writes func.py, runs the tests, edits them until they pass.
      expect(sample).toMatchObject({ key: { scaffold: 'chat-agent' }, outcome: 'passed', stopReason: 'submitted', errorCount: 0 });
      expect(sample!.testDiff).not.toBe('');
      expect(sample!.sourceDiff).not.toBe('');
      expect(sample!.inputTokens).toBeGreaterThan(0);
      const t = sample!.transcript;
      expect(t[0]).toMatchObject({ role: 'system', content: expect.stringMatching(/coding agent/) });
      expect(t[1]).toMatchObject({ role: 'user', content: expect.stringMatching(/func\.py/) });
      const calls = t.flatMap((m) => m.toolCalls ?? []);
      const commands = calls.map((c) => `${c.name} ${(JSON.parse(c.arguments) as { command?: string }).command ?? ''}`);
      expect(commands).toEqual([
        'bash cat test.py',
        'text_editor create',
        'bash python test.py',
        'text_editor str_replace',
        'bash python test.py',
        'submit ',
      ]);
      // Each call's result shows once, after the reply that made it, as the program sent it back.
      const results = t.filter((m) => m.role === 'tool');
      expect(results.map((m) => m.toolCallId)).toEqual(calls.slice(0, -1).map((c) => c.id));
      expect(results[1]!.content).toBe('File created: func.py');
      expect(results[2]!.content).toMatch(/\[exit code: 1\]$/);
      expect(results[4]!.content).not.toMatch(/exit code/);
      expect(t.filter((m) => m.name !== undefined)).toEqual([]);
    } finally {
      db.close();
    }
  }, 620_000);
});
