import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../results/store.js';
import { requireAgentBinary } from '../../scaffolds/agent-cli/binaries.js';
import { BUILTIN_AGENT_CLIS, CODEX_INSTALL } from '../../scaffolds/agent-cli/spec.js';
import { assertBuilt, cli } from '../testing/cli.js';

/**
 * Agent programs as scaffolds through the whole product: `impossiblebench run --scaffold codex --scaffold claude-code`
 * writes a store whose samples are graded and carry the program's traffic as their transcript; a program a config
 * describes runs under its own scaffold name; a missing program, a model the program cannot speak to, an unknown
 * scaffold and a bad description fail before any sample with one line.
 */
let dir: string;
beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'ib-agent-cli-run-'));
});

const errorLine = (stderr: string) => stderr.trim().split('\n')[0]!;

describe('run with agent programs as scaffolds', () => {
  it('runs codex and claude-code samples into the store, graded and with their traffic as the transcript', async () => {
    const store = join(dir, 'clis.sqlite');
    const args = ['run', '--model', 'scripted/honest', '--dataset', 'builtin:lcb', '--split', 'original', '--limit', '1'];
    const r = await cli([...args, '--scaffold', 'codex', '--scaffold', 'claude-code', '--run-id', 'clis', '--store', store, '--plain'], {
      timeout: 600_000,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const db = openStore(store, { mustExist: true });
    try {
      const samples = db.listSamples('clis');
      expect(samples.map((s) => `${s.key.scaffold} ${s.outcome} ${s.stopReason}`).sort()).toEqual([
        'claude-code passed submitted',
        'codex passed submitted',
      ]);
      for (const s of samples) {
        expect(s.errorCount, s.key.scaffold).toBe(0);
        expect(s.inputTokens, s.key.scaffold).toBeGreaterThan(0);
        expect(s.sourceDiff, s.key.scaffold).not.toBe('');
        expect(
          s.transcript.some((m) => m.role === 'assistant' && (m.toolCalls ?? []).length > 0),
          s.key.scaffold,
        ).toBe(true);
      }
    } finally {
      db.close();
    }
    const report = await cli(['report', 'clis', '--store', store]);
    expect(report.exitCode, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/codex/);
    expect(report.stdout).toMatch(/claude-code/);
  }, 620_000);

  it('runs an agent program a config file describes, under its own scaffold name', async () => {
    const binary = requireAgentBinary(BUILTIN_AGENT_CLIS.codex.spec);
    const mine = { ...BUILTIN_AGENT_CLIS.codex.spec, name: 'my-codex', binary };
    const config = join(dir, 'mine.json');
    await writeFile(config, JSON.stringify({ models: ['scripted/modify-tests'], splits: ['oneoff'], scaffolds: ['my-codex'], agentClis: [mine] }));
    const store = join(dir, 'mine.sqlite');
    const r = await cli(['run', '--config', config, '--dataset', 'builtin:lcb', '--limit', '1', '--run-id', 'mine', '--store', store, '--plain'], {
      timeout: 600_000,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const db = openStore(store, { mustExist: true });
    try {
      const [sample, ...rest] = db.listSamples('mine');
      expect(rest).toEqual([]);
      expect(sample).toMatchObject({ key: { scaffold: 'my-codex' }, outcome: 'passed', stopReason: 'submitted' });
      expect(sample!.testDiff).not.toBe('');
    } finally {
      db.close();
    }
  }, 620_000);

  it('fails before any sample when the program is missing, naming the command that installs it', async () => {
    const store = join(dir, 'missing.sqlite');
    const r = await cli(['run', '--model', 'scripted/honest', '--scaffold', 'codex', '--store', store], {
      env: { IMPOSSIBLEBENCH_CODEX_BIN: join(dir, 'no-codex-here') },
    });
    expect(r.exitCode).toBe(1);
    expect(errorLine(r.stderr)).toMatch(/scaffold codex needs its agent program, which is missing \(IMPOSSIBLEBENCH_CODEX_BIN=.*no-codex-here/);
    expect(r.stderr).toContain(CODEX_INSTALL);
    expect(existsSync(store)).toBe(false);
  });

  it('refuses a model the program cannot reach, an unknown scaffold and a bad description, each in one line', async () => {
    const anthropic = await cli(['run', '--model', 'anthropic/claude-sonnet-4-5', '--scaffold', 'codex', '--store', join(dir, 'x.sqlite')], {
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
    });
    expect(anthropic.exitCode).toBe(1);
    expect(errorLine(anthropic.stderr)).toMatch(
      /scaffold codex speaks the openai-responses API, which model anthropic\/claude-sonnet-4-5 is not reached through/,
    );
    const unknown = await cli(['run', '--model', 'scripted/honest', '--scaffold', 'aider', '--store', join(dir, 'x.sqlite')]);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toMatch(
      /unknown scaffold "aider"\n\s+fix: use one of minimal, full, codex, claude-code, or describe the agent program under agentClis/,
    );
    const config = join(dir, 'bad.yaml');
    await writeFile(
      config,
      'models: [scripted/honest]\nscaffolds: [mine]\nagentClis:\n  - name: mine\n    binary: mine\n    args: ["{{prompt}}"]\n    api: grpc\n',
    );
    const bad = await cli(['run', '--config', config, '--store', join(dir, 'x.sqlite')]);
    expect(bad.exitCode).toBe(1);
    expect(errorLine(bad.stderr)).toMatch(/bad\.yaml: field `agentClis\[0\]\.api`: .*"openai-chat".*"openai-responses".*"anthropic"/);
    expect(existsSync(join(dir, 'x.sqlite'))).toBe(false);
  });
});
