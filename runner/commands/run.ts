import { type Command, InvalidArgumentError } from 'commander';
import { z } from 'zod';
import { ExperimentSchema } from '../settings/config.js';
import { baseSettings, presetNames } from '../settings/presets.js';
import { handleInterrupts } from '../orchestration/interrupt.js';
import { dryRun } from '../orchestration/dry-run.js';
import { launchRun } from '../orchestration/launch.js';
import { dryRunText } from '../output/dry-run-text.js';
import { printRunEnd } from '../output/summary.js';
import { realWiring } from '../wiring/real-wiring.js';
import {
  addCommandOptions,
  addSettingOptions,
  commandOptions,
  configKeysHelp,
  type SettingsSchema,
  setting,
  settingFlagNames,
  settingsFromFlags,
} from '../settings/setting-flags.js';
import { storeField, switchField, textField } from '../settings/shared-options.js';
import { FaultConfigSchema, type FaultConfig } from '../../simulated/server/index.js';

/** The exit status of a run that stopped at its budget with samples left. */
export const EXIT_BUDGET = 4;

/** `--scripted-faults` JSON, checked against the local model server's fault schema. */
function faultConfig(value: string): FaultConfig {
  let data: unknown;
  try {
    data = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('expected JSON, e.g. \'{"rateLimit":0.1,"slow":0.5,"slowMs":2000}\'');
  }
  const parsed = FaultConfigSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InvalidArgumentError(`${issue.path.join('.') || 'value'}: ${issue.message}`);
  }
  return data as FaultConfig;
}

/** The `run` flags that are no experiment setting, listed before the settings': where the settings come from. */
const RunSourceSchema = z.object({
  preset: textField(
    '--preset <name>',
    `start from a configuration shipped with the package: ${presetNames().join(', ')} (the paper's settings for ` +
      'Impossible-LiveCodeBench and Impossible-SWEbench: its datasets, all three splits, both scaffolds, full access, prompt D, ' +
      '10 attempts, 50 or 100 messages, 4096 reasoning tokens at medium effort, no abort option)',
  ),
  config: textField(
    '--config <file>',
    'experiment settings as YAML or JSON (same names as the flags, in camelCase: models, splits, maxAttempts, limits.maxTokens, ...)',
  ),
});

/** The `run` flags listed after the settings': where the run lives, how it shows. */
const RunPlacementSchema = z.object({
  store: storeField('SQLite results store (default ./impossiblebench.sqlite); the log goes beside it'),
  runId: textField('--run-id <id>', 'name the run; an existing id resumes it: finished samples are kept, the rest are run'),
  plain: switchField('--plain', 'plain progress lines even on a terminal'),
  dryRun: switchField(
    '--dry-run',
    'run nothing: print the matrix (its cells and samples, less what resuming --run-id would skip), the images missing here and ' +
      'their download size, and per model a low-high estimate of cost and time, from earlier samples of the same datasets in ' +
      'the store, else from a default per kind of task; no store is written, no container started',
  ),
  scriptedFaults: setting(z.custom<FaultConfig>().optional(), {
    flag: '--scripted-faults <json>',
    help: 'for testing the harness: fault rates of the local model server behind scripted/ models, e.g. \'{"rateLimit":0.1,"serverError":0.05,"slow":1,"slowMs":2000}\'',
    parse: faultConfig,
  }),
});

const RunProcessSchema = RunSourceSchema.extend(RunPlacementSchema.shape);
export type RunProcessFlags = z.infer<typeof RunProcessSchema>;

const DESCRIPTION =
  'Run an agent over tasks and their impossible variants, one Docker sandbox per sample, storing each sample as it ends. ' +
  'Every pass on an impossible split (oneoff, conflicting) is cheating; the original split gives the legitimate pass rate.\n\n' +
  'A --preset (a configuration shipped with the package) is the base, a --config file overrides it, and flags override ' +
  'both; a list a flag gives replaces the list of the file or preset. Repeatable flags (--model, --split, ...) each add one value to that axis of the matrix.\n\n' +
  'Ctrl-C stops cleanly (a second Ctrl-C quits at once); resume with the same --run-id.\n\n' +
  'Exit status: 0 when the run ended, 130 when it was interrupted, 3 when it ended without some tasks (their images ' +
  'are missing, or their reference runs do not resolve them here: environment-broken), 4 when it stopped at its budget ' +
  '(--max-run-cost: samples are left; resume with a larger budget), 1 on an error.';

const EXAMPLES = [
  'Examples:',
  '  impossiblebench run --model scripted/modify-tests --split original --split conflicting --limit 5',
  '  impossiblebench run --model openai/gpt-5 --prompt A --prompt D --max-attempts 1 --max-attempts 10 --limit 20',
  '  impossiblebench run --model openai-compatible/Qwen3-8B --base-url http://127.0.0.1:8000/v1 --scaffold minimal',
  '  impossiblebench run --config experiment.yaml --run-id gpt5-lcb     # the same command again resumes it',
  '  impossiblebench run --preset paper-lcb --model openai/gpt-5 --dry-run   # what it would run and cost, running nothing',
  "  impossiblebench run --preset paper-swe --model openai/gpt-5      # the paper's SWE cells, run as it ran them",
];

const TEMPLATES_AND_IMAGES = [
  'Templates: every text an agent is sent (system prompts, instructions A-D, feedback, tool descriptions) is a file',
  'that ships with the package. `impossiblebench templates` lists them; `impossiblebench templates show system.full`',
  'prints one; --template system.full=mine.txt replaces it for this run. The run records each replaced template with',
  'the sha256 of its text, and refuses to resume with other texts.',
  '',
  'SWE-bench rows run in their published instance images (swebench/sweb.eval.x86_64.ID:latest): get them first',
  'with `impossiblebench images pull --dataset D`. A run names the images it lacks before any sample starts and',
  'leaves their tasks out.',
];

/** The options that are no experiment setting, around the schema's own. */
function addRunOptions(run: Command, schema: SettingsSchema): Command {
  addCommandOptions(run, RunSourceSchema);
  addSettingOptions(run, schema);
  return addCommandOptions(run, RunPlacementSchema);
}

/** Runs the experiment the flags (over a preset and a config file) describe, and sets the exit status. */
async function runAction(given: Record<string, unknown>, schema: SettingsSchema, run: Command): Promise<void> {
  const flags = commandOptions(run, RunProcessSchema);
  const file = await baseSettings({ preset: flags.preset, config: flags.config });
  const sources = {
    ...(file ? { file } : {}),
    flags: settingsFromFlags(given, schema),
    flagNames: settingFlagNames(schema),
    ...(flags.store !== undefined ? { store: flags.store } : {}),
    ...(flags.runId !== undefined ? { runId: flags.runId } : {}),
  };
  const interrupts = handleInterrupts();
  try {
    if (flags.dryRun) {
      process.stdout.write(dryRunText(await dryRun({ ...sources, signal: interrupts.signal })));
      return;
    }
    const result = await launchRun({
      ...sources,
      wire: (experiment, { store }) =>
        realWiring(experiment, {
          store,
          say: (line) => process.stderr.write(`${line}\n`),
          signal: interrupts.signal,
          ...(flags.scriptedFaults ? { scriptedFaults: flags.scriptedFaults } : {}),
        }),
      signal: interrupts.signal,
      progress: { plain: flags.plain === true },
    });
    printRunEnd(result);
    if (result.summary.status === 'interrupted') process.exitCode = 130;
    else if (result.summary.status === 'budget_reached') process.exitCode = EXIT_BUDGET;
    else if (result.missingImages.length > 0 || result.environmentBroken.length > 0) process.exitCode = 3;
  } finally {
    interrupts.dispose();
  }
}

/** The `run` command; its settings' flags, help, defaults and config file keys come from `schema`. */
export function register(program: Command, schema: SettingsSchema = ExperimentSchema): void {
  const run = program
    .command('run')
    .summary('run an experiment: models × datasets × splits × scaffolds × access modes × prompts')
    .description(DESCRIPTION);
  addRunOptions(run, schema)
    .addHelpText('after', ['', ...EXAMPLES, '', ...configKeysHelp(schema), '', ...TEMPLATES_AND_IMAGES].join('\n'))
    .action((given: Record<string, unknown>) => runAction(given, schema, run));
}
