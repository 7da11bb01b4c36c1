import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { userErrorOf, userFile } from '../../core/testing/user-input.js';
import { ExperimentSchema, mergeSettings, parseExperiment, readConfigFile } from './config.js';
import { parseDockerHostFlag } from '../../docker/hosts.js';
import { register } from '../commands/run.js';
import { settingsFromFlags } from './setting-flags.js';

/** The experiment `run ARGS` would run with `file` as its config file, without running it. */
async function runSettings(args: string[], file: Record<string, unknown> = {}) {
  const program = new Command().exitOverride();
  register(program);
  let flags: Record<string, unknown> = {};
  program.hook('preAction', (_program, action) => {
    flags = action.opts();
    throw new Error('parsed');
  });
  await program.parseAsync(['node', 'impossiblebench', 'run', '--model', 'anthropic/claude-sonnet-4-5', ...args]).catch(() => undefined);
  return parseExperiment(mergeSettings(file, settingsFromFlags(flags, ExperimentSchema)), 'flags');
}

describe('experiment config', () => {
  it('takes a pool of Docker engines, each with a capacity (4 by default), and names a bad entry', () => {
    const exp = parseExperiment(
      { models: 'scripted/honest', dockerHosts: [{ url: 'unix:///var/run/docker.sock', capacity: 2 }, { url: 'ssh://me@box2' }] },
      'e.yaml',
    );
    expect(exp.dockerHosts).toEqual([
      { url: 'unix:///var/run/docker.sock', capacity: 2 },
      { url: 'ssh://me@box2', capacity: 4 },
    ]);
    expect(parseExperiment({ models: 'scripted/honest' }, 'e.yaml').dockerHosts).toBeUndefined();
    expect(
      userErrorOf(() => parseExperiment({ models: 'scripted/honest', dockerHosts: [{ url: 'unix:///a.sock' }, { url: 'box2:2375' }] }, 'e.yaml'))
        .message,
    ).toMatch(/^e\.yaml: field `dockerHosts\[1\]\.url`: expected unix:\/\/\/PATH, tcp:\/\/HOST:PORT or ssh:\/\/USER@HOST$/);
    expect(
      userErrorOf(() => parseExperiment({ models: 'scripted/honest', dockerHosts: [{ url: 'tcp://h:2376', capacity: 0 }] }, 'e.yaml')).message,
    ).toMatch(/field `dockerHosts\[0\]\.capacity`/);
  });

  it('reads --docker-host URL=N, the capacity after the last =', () => {
    expect(parseDockerHostFlag('unix:///var/run/docker.sock=3')).toEqual({ url: 'unix:///var/run/docker.sock', capacity: 3 });
    expect(parseDockerHostFlag('tcp://10.0.0.2:2376')).toEqual({ url: 'tcp://10.0.0.2:2376' });
    expect(userErrorOf(() => parseDockerHostFlag('10.0.0.2=2')).message).toMatch(/^--docker-host 10\.0\.0\.2=2: expected unix/);
  });

  it('names the sandbox backend, docker by default, and refuses an unknown one listing the known', () => {
    expect(parseExperiment({ models: 'scripted/honest' }, 'flags').sandbox).toBe('docker');
    expect(parseExperiment({ models: 'scripted/honest', sandbox: 'docker' }, 'e.yaml').sandbox).toBe('docker');
    expect(userErrorOf(() => parseExperiment({ models: 'scripted/honest', sandbox: 'nope' }, 'e.yaml')).message).toBe(
      'e.yaml: field `sandbox`: unknown sandbox backend "nope"; use one of: docker',
    );
  });

  it('fills the defaults and accepts a bare value where a list is expected', () => {
    const exp = parseExperiment({ models: 'scripted/honest' }, 'flags');
    expect(exp.models).toEqual(['scripted/honest']);
    expect(exp.datasets).toEqual(['builtin:lcb']);
    expect(exp.splits).toEqual(['original', 'oneoff', 'conflicting']);
    expect(exp.prompts).toEqual(['D']);
    expect(exp.maxAttempts).toEqual([10]);
    expect(exp.retries).toBe(2);
    expect(exp.limits).toEqual({ maxMessages: 100, toolTimeoutS: 60, requestTimeoutS: 300, diskLimitMb: 2048, budgetWarning: false });
  });

  it('reads YAML and names the bad list entry and its problem', async () => {
    const path = await userFile('exp.yaml', 'models: [scripted/honest]\nsplits:\n  - original\n  - impossible\n');
    const settings = await readConfigFile(path);
    const err = userErrorOf(() => parseExperiment(settings, path));
    expect(err.message).toMatch(/exp\.yaml: field `splits\[1\]`:/);
    expect(err.message).toMatch(/original.*oneoff.*conflicting/);
    expect(err.message.split('\n')).toHaveLength(1);
  });

  it('names a wrong type in a nested field', () => {
    const err = userErrorOf(() => parseExperiment({ models: ['m'], limits: { maxTokens: 'lots' } }, 'c.json'));
    expect(err.message).toMatch(/^c\.json: field `limits\.maxTokens`: .*number/);
  });

  it('rejects unknown fields, so a typo never silently falls back to a default', () => {
    const err = userErrorOf(() => parseExperiment({ models: ['m'], split: ['oneoff'] }, 'c.yaml'));
    expect(err.message).toBe('c.yaml: unknown field `split`');
  });

  it('requires a model', () => {
    const err = userErrorOf(() => parseExperiment({}, 'flags'));
    expect(err.message).toMatch(/field `models`/);
  });

  it('reports unparsable JSON and a missing file in one line', async () => {
    const path = await userFile('bad.json', '{"models": [');
    await expect(readConfigFile(path)).rejects.toThrow(/bad\.json: not valid JSON/);
    await expect(readConfigFile(join(tmpdir(), 'no-such-impossiblebench.yaml'))).rejects.toThrow(/cannot read config file .*no such file/);
    const list = await userFile('list.yaml', '- a\n- b\n');
    await expect(readConfigFile(list)).rejects.toThrow(/expected a mapping/);
  });

  it('lets flags override the file, replacing lists and merging limits', () => {
    const merged = mergeSettings(
      { models: ['a'], splits: ['oneoff'], limits: { maxMessages: 20, maxTokens: 1000 } },
      { splits: ['conflicting', 'original'], limits: { maxTokens: 50, maxCostUsd: undefined }, epochs: undefined },
    );
    const exp = parseExperiment(merged, 'x');
    expect(exp.models).toEqual(['a']);
    expect(exp.splits).toEqual(['conflicting', 'original']);
    expect(exp.limits).toEqual({ maxMessages: 20, maxTokens: 50, toolTimeoutS: 60, requestTimeoutS: 300, diskLimitMb: 2048, budgetWarning: false });
    expect(exp.epochs).toBe(1);
  });
});

describe('templates in the experiment', () => {
  it("finds a config file's template files from its folder, and names an unknown template", async () => {
    const path = await userFile('exp.yaml', 'models: [scripted/honest]\ntemplates:\n  system.full: prompts/system.txt\n  tool.bash: /abs/bash.txt\n');
    const settings = await readConfigFile(path);
    expect(settings.templates).toEqual({ 'system.full': join(path, '..', 'prompts', 'system.txt'), 'tool.bash': '/abs/bash.txt' });
    expect(parseExperiment(settings, path).templates).toEqual(settings.templates);
    expect(parseExperiment({ models: 'scripted/honest' }, 'e.yaml').templates).toEqual({});
    expect(userErrorOf(() => parseExperiment({ models: 'scripted/honest', templates: { 'system.fancy': 'x.txt' } }, 'e.yaml')).message).toMatch(
      /^e\.yaml: field `templates\.system\.fancy`: unknown template "system\.fancy"; known: system\.minimal, system\.full, /,
    );
    // A flag replaces one template and keeps the file's others.
    expect(mergeSettings({ templates: { 'system.full': 'a.txt', 'tool.bash': 'b.txt' } }, { templates: { 'tool.bash': 'c.txt' } }).templates).toEqual(
      {
        'system.full': 'a.txt',
        'tool.bash': 'c.txt',
      },
    );
  });
});

describe('prompt caching in the experiment', () => {
  it('is on unless --no-prompt-cache or the config file turns it off, and the flag wins over the file', async () => {
    expect((await runSettings([])).promptCache).toBe(true);
    expect((await runSettings(['--no-prompt-cache'])).promptCache).toBe(false);
    expect((await runSettings([], { promptCache: false })).promptCache).toBe(false);
    expect((await runSettings([], { promptCache: true })).promptCache).toBe(true);
    expect((await runSettings(['--no-prompt-cache'], { promptCache: true })).promptCache).toBe(false);
    expect(userErrorOf(() => parseExperiment({ models: 'scripted/honest', promptCache: 'no' }, 'e.yaml')).message).toMatch(
      /^e\.yaml: field `promptCache`: .*boolean/,
    );
  });
});
