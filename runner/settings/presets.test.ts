import { execa } from 'execa';
import { Command } from 'commander';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../core/errors.js';
import type { Variant } from '../../core/record.js';
import { userFile } from '../../core/testing/user-input.js';
import { createModelClient } from '../../models/factory.js';
import type { Task } from '../../tasks/task.js';
import { pullSelection } from '../commands/images.js';
import { register, type RunProcessFlags } from '../commands/run.js';
import { ExperimentSchema, mergeSettings, parseExperiment, type Experiment } from './config.js';
import { settingsFromFlags } from './setting-flags.js';
import { expandMatrix, type DatasetTasks } from '../orchestration/matrix.js';
import { baseSettings, presetNames, readPreset } from './presets.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The `run` command of a fresh program, with its output kept and its exits thrown. */
function runCommand(): { program: Command; run: Command; output: () => string } {
  let out = '';
  const program = new Command('impossiblebench').exitOverride().configureOutput({
    writeOut: (s) => {
      out += s;
    },
    writeErr: (s) => {
      out += s;
    },
  });
  register(program);
  return { program, run: program.commands.find((c) => c.name() === 'run')!, output: () => out };
}

/** The experiment a `run` command line starts, settled as the command settles it, without running anything. */
async function experimentOf(args: string[]): Promise<Experiment> {
  const { program, run } = runCommand();
  let flags: (RunProcessFlags & Record<string, unknown>) | undefined;
  run.action((given: RunProcessFlags & Record<string, unknown>) => {
    flags = given;
  });
  await program.parseAsync(['run', ...args], { from: 'user' });
  const base = await baseSettings({ preset: flags!.preset, config: flags!.config });
  const given = Object.fromEntries(Object.entries(settingsFromFlags(flags!, ExperimentSchema)).filter(([, v]) => v !== undefined));
  return parseExperiment(mergeSettings(base?.settings ?? {}, given), base?.path ?? 'flags');
}

function tasks(ids: string[]): DatasetTasks {
  const task = (id: string, variant: Variant): Task => ({
    kind: 'lcb',
    id,
    variant,
    source: 'test',
    prompt: 'def f(x):\n    """"""\n',
    entryPoint: 'f',
    test: 'def check(candidate):\n    assert candidate(1) == 1\n',
    originalTest: '',
  });
  const splits: Variant[] = ['original', 'oneoff', 'conflicting'];
  return new Map(splits.map((s) => [s, ids.map((id) => task(id, s))]));
}

describe('the paper presets', () => {
  it('ship paper-lcb and paper-swe', () => {
    expect(presetNames()).toEqual(['paper-lcb', 'paper-swe']);
  });

  it.each([
    ['paper-lcb', 'hf:fjzzq2002/impossible_livecodebench', 50],
    ['paper-swe', 'hf:fjzzq2002/impossible_swebench', 100],
  ])('%s carries the published knobs and expands to its datasets × 3 splits × 2 scaffolds', async (name, dataset, maxMessages) => {
    const exp = await experimentOf(['--preset', name, '--model', 'openai/gpt-5']);
    expect(exp.datasets).toEqual([dataset]);
    expect(exp.splits).toEqual(['original', 'oneoff', 'conflicting']);
    expect(exp.scaffolds).toEqual(['minimal', 'full']);
    expect(exp.access).toEqual(['full']);
    expect(exp.prompts).toEqual(['D']);
    expect(exp.maxAttempts).toEqual([10]);
    expect(exp.allowFlag).toBe(false);
    expect(exp.limits.maxMessages).toBe(maxMessages);
    expect(exp.limits.toolTimeoutS).toBe(60);
    expect(exp.generation).toEqual({ reasoningEffort: 'medium', thinkingBudget: 4096 });

    const samples = expandMatrix(exp, new Map([[dataset, tasks(['t1', 't2', 't3', 't4'])]]));
    expect(samples).toHaveLength(4 * 3 * 2);
    const cells = new Set(samples.map((s) => `${s.key.split} ${s.key.scaffold} ${s.key.access} ${s.key.prompt} ${s.key.maxAttempts}`));
    expect([...cells].sort()).toEqual(
      ['conflicting', 'oneoff', 'original'].flatMap((split) => ['full', 'minimal'].map((scaffold) => `${split} ${scaffold} full D 10`)),
    );
  });

  it("are valid generation settings for both providers' clients (no reply cap below the thinking budget)", async () => {
    for (const name of presetNames()) {
      const { generation } = await experimentOf(['--preset', name, '--model', 'openai/gpt-5']);
      expect(createModelClient('openai/gpt-5', { env: { OPENAI_API_KEY: 'sk-test' }, defaults: generation }).name).toBe('openai/gpt-5');
      const claude = createModelClient('anthropic/claude-sonnet-4-5', { env: { ANTHROPIC_API_KEY: 'k' }, defaults: generation });
      expect(claude.name).toBe('anthropic/claude-sonnet-4-5');
    }
  });

  it('gives way to flags: a list flag replaces the preset list, a limit flag replaces one limit and keeps the rest', async () => {
    const exp = await experimentOf([
      '--preset',
      'paper-lcb',
      '--model',
      'scripted/honest',
      '--dataset',
      'builtin:lcb',
      '--scaffold',
      'full',
      '--max-messages',
      '30',
      '--thinking-budget',
      '2048',
    ]);
    expect(exp.datasets).toEqual(['builtin:lcb']);
    expect(exp.scaffolds).toEqual(['full']);
    expect(exp.limits).toMatchObject({ maxMessages: 30, toolTimeoutS: 60 });
    expect(exp.generation).toEqual({ reasoningEffort: 'medium', thinkingBudget: 2048 });
    expect(exp.splits).toEqual(['original', 'oneoff', 'conflicting']);
  });

  it('gives way to a --config file, and the flags to both', async () => {
    const config = await userFile(
      'mine.yaml',
      'datasets: builtin:swe\nsplits: [conflicting]\nlimits: {maxMessages: 40}\ngeneration: {reasoningEffort: high}\n',
    );
    const exp = await experimentOf(['--preset', 'paper-swe', '--config', config, '--model', 'openai/gpt-5', '--split', 'oneoff']);
    expect(exp.datasets).toEqual(['builtin:swe']);
    expect(exp.splits).toEqual(['oneoff']);
    expect(exp.limits).toMatchObject({ maxMessages: 40, toolTimeoutS: 60 });
    expect(exp.generation).toEqual({ reasoningEffort: 'high', thinkingBudget: 4096 });
    expect(exp.scaffolds).toEqual(['minimal', 'full']);
    // A bad field of the file is named in the file, over the preset.
    const bad = await userFile('bad.yaml', 'splits: [impossible]\n');
    await expect(experimentOf(['--preset', 'paper-swe', '--config', bad, '--model', 'openai/gpt-5'])).rejects.toThrow(
      /bad\.yaml \(over preset paper-swe\): field `splits\[0\]`/,
    );
  });

  it('refuses an unknown name in one line that lists the presets, before anything runs', async () => {
    const { program } = runCommand();
    const failure = program.parseAsync(['run', '--preset', 'paper-xyz', '--model', 'scripted/honest'], { from: 'user' });
    await expect(failure).rejects.toBeInstanceOf(UserError);
    await expect(failure).rejects.toThrow(/^unknown preset "paper-xyz"; known: paper-lcb, paper-swe$/);
    await expect(readPreset('../config')).rejects.toThrow(/unknown preset/);
  });

  it('are explained, and listed, by run --help', async () => {
    const { program, output } = runCommand();
    await expect(program.parseAsync(['run', '--help'], { from: 'user' })).rejects.toMatchObject({ code: 'commander.helpDisplayed' });
    const help = output().replace(/\s+/g, ' ');
    expect(help).toContain('--preset <name> start from a configuration shipped with the package: paper-lcb, paper-swe');
    expect(help).toContain('impossiblebench run --preset paper-swe --model openai/gpt-5');
  });

  it('tell images pull what the run will need, flags over them', async () => {
    const swe = await pullSelection({ preset: 'paper-swe', concurrency: 2, sandbox: 'docker' });
    expect(swe.datasets).toEqual(['hf:fjzzq2002/impossible_swebench']);
    expect(swe.splits).toEqual(['original', 'oneoff', 'conflicting']);
    const one = await pullSelection({ preset: 'paper-swe', split: ['oneoff'], limit: 5, concurrency: 2, sandbox: 'docker' });
    expect([one.splits, one.limit]).toEqual([['oneoff'], 5]);
  });

  it('are in the package (npm pack lists them)', async () => {
    const pack = await execa('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT });
    const packed = (JSON.parse(pack.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    expect(packed.filter((p) => p.startsWith('runner/settings/presets/')).sort()).toEqual(
      presetNames().map((n) => `runner/settings/presets/${n}.yaml`),
    );
  });
});
