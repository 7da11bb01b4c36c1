import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { userErrorOf, userFile } from '../../core/testing/user-input.js';
import { register } from '../commands/run.js';
import { wholeNumber } from './shared-flags.js';
import { ExperimentSchema, LimitsSchema, mergeSettings, parseExperiment, readConfigFile } from './config.js';
import { type SettingsSchema, setting, settingFlagNames, settingsFromFlags } from './setting-flags.js';

/** The shipped schema with one more setting and one more limit, each written once, as a new setting would be. */
const Extended = ExperimentSchema.extend({
  warmupRounds: setting(z.number().int().nonnegative().default(3), {
    flag: '--warmup-rounds <n>',
    help: 'rounds the agent gets before its first graded one',
    parse: wholeNumber(0),
  }),
  limits: LimitsSchema.extend({
    maxToolCalls: setting(z.number().int().positive().default(40), {
      flag: '--max-tool-calls <n>',
      help: 'per-sample limit on tool calls',
      parse: wholeNumber(1),
    }),
  }).prefault({}),
});

/** `run ARGS` under `schema`: the help it prints, or the settings its flags give, without running anything. */
async function runWith(schema: SettingsSchema, args: string[]): Promise<{ help: string; flags: Record<string, unknown> }> {
  let help = '';
  let flags: Record<string, unknown> = {};
  const program = new Command('impossiblebench').exitOverride().configureOutput({
    writeOut: (s) => {
      help += s;
    },
    getOutHelpWidth: () => 400,
  });
  register(program, schema);
  program.hook('preAction', (_program, action) => {
    flags = settingsFromFlags(action.opts(), schema);
    throw new Error('parsed');
  });
  await program.parseAsync(['run', ...args], { from: 'user' }).catch(() => undefined);
  return { help, flags };
}

describe('settings written once, in the schema', () => {
  it('a setting added to the schema is a flag, a config file key, a help line with its default, and a default', async () => {
    const { flags } = await runWith(Extended, ['--model', 'scripted/honest', '--warmup-rounds', '5', '--max-tool-calls', '9']);
    expect(flags).toEqual({ models: ['scripted/honest'], warmupRounds: 5, limits: { maxToolCalls: 9 } });

    const path = await userFile('exp.yaml', 'models: scripted/honest\nwarmupRounds: 7\nlimits:\n  maxToolCalls: 12\n  maxMessages: 30\n');
    const file = await readConfigFile(path);
    const fromFile = parseExperiment(file, path, Extended) as unknown as { warmupRounds: number; limits: Record<string, number> };
    expect(fromFile.warmupRounds).toBe(7);
    expect(fromFile.limits).toMatchObject({ maxToolCalls: 12, maxMessages: 30 });
    // Flags over the file, a group merged field by field.
    const both = parseExperiment(mergeSettings(file, flags, Extended), path, Extended) as unknown as typeof fromFile;
    expect(both.warmupRounds).toBe(5);
    expect(both.limits).toMatchObject({ maxToolCalls: 9, maxMessages: 30 });

    const { help } = await runWith(Extended, ['--help']);
    expect(help).toMatch(/--warmup-rounds <n> +rounds the agent gets before its first graded one \(default 3\)\n/);
    expect(help).toMatch(/--max-tool-calls <n> +per-sample limit on tool calls \(default 40\)\n/);
    expect(help).toMatch(/A config file uses the same names:[\s\S]*\bwarmupRounds\b/);
    expect(help).toContain(
      'limits: {maxMessages, maxTokens, maxCostUsd, timeLimitS, toolTimeoutS, requestTimeoutS, cpus, memoryMb, budgetWarning, diskLimitMb, maxToolCalls}',
    );

    const defaults = parseExperiment({ models: 'scripted/honest' }, 'flags', Extended) as unknown as typeof fromFile;
    expect(defaults.warmupRounds).toBe(3);
    expect(defaults.limits).toMatchObject({ maxToolCalls: 40, maxMessages: 100 });
    expect(settingFlagNames(Extended)).toMatchObject({ warmupRounds: '--warmup-rounds', limits: expect.stringMatching(/\/--max-tool-calls$/) });
  });

  it('the shipped schema knows none of it: no such flag, and the config file key is refused', async () => {
    const { help } = await runWith(ExperimentSchema, ['--help']);
    expect(help).not.toContain('--warmup-rounds');
    expect(help).not.toContain('warmupRounds');
    expect(userErrorOf(() => parseExperiment({ models: 'scripted/honest', warmupRounds: 2 }, 'e.yaml')).message).toBe(
      'e.yaml: unknown field `warmupRounds`',
    );
  });

  it('every shipped setting shows its schema default in the help, and a --no- flag overrides only when given', async () => {
    const { help } = await runWith(ExperimentSchema, ['--help']);
    const shownDefaults: [string, string][] = [
      ['--dataset <name>', 'builtin:lcb'],
      ['--max-attempts <n>', '10'],
      ['--max-messages <n>', '100'],
      ['--disk-limit <MiB>', '2048'],
      ['--image-arch <arch>', 'x86_64'],
      ['--sandbox <name>', 'docker'],
    ];
    for (const [flag, shown] of shownDefaults)
      expect(help).toMatch(new RegExp(`${flag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} .*\\(default ${shown}\\)`));
    expect((await runWith(ExperimentSchema, ['--model', 'm/x'])).flags).toEqual({ models: ['m/x'] });
    expect((await runWith(ExperimentSchema, ['--model', 'm/x', '--no-prompt-cache'])).flags).toEqual({ models: ['m/x'], promptCache: false });
  });
});
