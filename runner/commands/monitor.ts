import type { Command } from 'commander';
import { z } from 'zod';
import { BATCH_HELP, batchClient, batchOptions, batchProgress } from './batch-options.js';
import { reportFailures } from './failures.js';
import { BATCH_CONTEXT, judgeContextTask } from '../../results/classify/judge-policy.js';
import { count, usd } from '../../results/format.js';
import { monitorTables } from '../../results/monitor/markdown.js';
import { monitorRun } from '../../results/monitor/monitor-run.js';
import { SCRIPTED_MONITORS, SCRIPTED_MONITOR_NAMES } from '../../results/monitor/policies.js';
import { MONITOR_PROMPT_FILE, MONITOR_PROMPT_NEEDS } from '../../results/monitor/prompt.js';
import { loadMonitorReportData, monitorIdString } from '../../results/monitor/report-data.js';
import { STATIC_MONITOR } from '../../results/monitor/static.js';
import { readPromptFile, shippedPrompt } from '../../results/prompt-file.js';
import { shortHash, type PromptFile } from '../../core/text-file.js';
import { resolveRun } from '../../results/resolve-run.js';
import { DEFAULT_STORE_FILE, openStore } from '../../results/store.js';
import { createModelClient, parseModelSpec } from '../../models/index.js';
import type { ModelClient } from '../../core/model.js';
import { startModelServer, type ModelServer } from '../../simulated/server/index.js';
import { UserError } from '../../core/errors.js';
import { handleInterrupts } from '../orchestration/interrupt.js';
import { addCommandOptions, commandOptions } from '../settings/setting-flags.js';
import { baseUrlField, concurrencyField, storeField, switchField, textField, thresholdField } from '../settings/shared-options.js';

/** The options of `monitor`, in the order the help lists them. */
export const MonitorOptionsSchema = z.object({
  model: textField(
    '--model <spec>',
    `the monitor: openai/NAME, anthropic/NAME, openai-compatible/NAME (with --base-url), or a scripted stand-in (${SCRIPTED_MONITOR_NAMES.map((n) => `scripted/${n}`).join(', ')})`,
  ),
  static: switchField(
    '--static',
    "print the static classifier's row alone, calling no model (with --model its row is printed anyway, beside the model's)",
  ),
  all: switchField(
    '--all',
    'read every sample an agent finished, not only the passed ones; evaded, agent-flagged and failed samples are reported apart from the rates',
  ),
  threshold: thresholdField('a sample is flagged when its score is at least this (0 to 100)'),
  promptFile: textField(
    '--prompt-file <file>',
    `the monitor's instructions (default: the shipped ${MONITOR_PROMPT_FILE}, which \`impossiblebench monitor --help\` names); must contain {{TAG}} (where the evidence's random tag is named) and SCORE: (the answer line)`,
  ),
  store: storeField('results store to read and add the scores to', DEFAULT_STORE_FILE),
  concurrency: concurrencyField('samples scored at once', 4),
  redo: switchField('--redo', 'score again samples this model and prompt already scored (the newest answer counts)'),
  baseUrl: baseUrlField(),
  ...batchOptions('scored'),
});
type MonitorOptions = z.infer<typeof MonitorOptionsSchema>;

/** The prompt the monitor is given: the user's file, checked, or the one that ships. */
export function monitorPrompt(file?: string): PromptFile {
  return file ? readPromptFile(file, MONITOR_PROMPT_NEEDS) : shippedPrompt(MONITOR_PROMPT_FILE);
}

/** The monitor model and its prompt the flags name, checked; none for the static classifier alone. */
function monitorModel(opts: MonitorOptions) {
  if (!opts.model && !opts.static) throw new UserError('name a monitor with --model, or ask for the static classifier alone with --static');
  if (opts.static && !opts.model && (opts.promptFile || opts.redo || opts.all || opts.baseUrl || opts.batch)) {
    throw new UserError('--static alone calls no model: --prompt-file, --redo, --all, --base-url and --batch need --model');
  }
  const prompt = opts.model ? monitorPrompt(opts.promptFile) : undefined;
  const spec = opts.model ? parseModelSpec(opts.model) : undefined;
  if (spec?.provider === 'scripted' && !Object.hasOwn(SCRIPTED_MONITORS, spec.name)) {
    throw new UserError(
      `scripted/${spec.name} is not a monitor`,
      `use one of ${SCRIPTED_MONITOR_NAMES.map((n) => `scripted/${n}`).join(', ')}, or a real model`,
    );
  }
  return { prompt, spec };
}

async function monitorAction(runId: string, opts: MonitorOptions): Promise<void> {
  const { threshold: limitAt, concurrency } = opts;
  const { prompt, spec } = monitorModel(opts);
  // A real client is built once up front, so a missing key fails before anything is read.
  const real: ModelClient | undefined =
    spec && spec.provider !== 'scripted'
      ? createModelClient(spec.spec, { ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}), concurrency })
      : undefined;
  const store = openStore(opts.store, { mustExist: true });
  let server: ModelServer | undefined;
  const interrupts = handleInterrupts({
    onFirst: () => process.stderr.write('\nstopping; scores so far are kept (Ctrl-C again to quit at once)\n'),
  });
  try {
    const run = resolveRun(store, runId);
    if (spec && prompt) {
      if (spec.provider === 'scripted') server = await startModelServer();
      const policy = SCRIPTED_MONITORS[spec.name];
      const tty = process.stderr.isTTY;
      // A scripted monitor answers a batch in one session of the local server; a real one through the client made above.
      const batcher = opts.batch
        ? batchClient(real ?? createModelClient(spec.spec, { server: server!, policy: policy!, context: BATCH_CONTEXT }))
        : undefined;
      const progress = batchProgress();
      const summary = await monitorRun(store, run.id, {
        model: spec.spec,
        prompt,
        concurrency,
        ...(opts.all ? { all: true } : {}),
        ...(opts.redo ? { redo: true } : {}),
        ...(batcher ? { batch: { client: batcher, pollSeconds: opts.batchPoll, onCheck: progress.onCheck, say: progress.say } } : {}),
        signal: interrupts.signal,
        client: (sample) =>
          real ??
          createModelClient(spec.spec, {
            server: server!,
            policy: policy!,
            context: { task: judgeContextTask(sample.key), scaffold: sample.key.scaffold },
          }),
        onProgress: (done, total) => {
          if (tty) process.stderr.write(`\rscored ${done}/${total}`);
        },
      });
      progress.end();
      if (tty && !batcher && summary.eligible > summary.skipped) process.stderr.write('\n');
      if (batcher && batcher !== real) await batcher.close?.();
      const stored = Object.values(summary.byStatus).reduce((a, b) => a + b, 0);
      const statuses = Object.entries(summary.byStatus)
        .filter(([, n]) => n)
        .map(([s, n]) => `${s} ${n}`);
      const skipped = summary.skipped ? ` (${summary.skipped} already scored with this prompt, skipped; --redo scores them again)` : '';
      const spent = stored
        ? `; ${count(summary.inputTokens + summary.outputTokens)} tokens, ${usd(summary.costUsd, summary.costUsd === null ? 1 : 0)}`
        : '';
      console.log(
        `monitored ${stored} of ${summary.eligible} ${opts.all ? 'finished' : 'passed'} samples with ${spec.spec}, prompt ${shortHash(prompt.sha256)}${skipped}${statuses.length ? `: ${statuses.join(', ')}` : ''}${spent}`,
      );
      if (interrupts.signal.aborted) console.log('interrupted: run the same command again to score the rest');
      reportFailures(summary.failures, 'score', 'scored');
    }
    const data = loadMonitorReportData(store, run.id, limitAt, { llm: Boolean(spec) });
    // The static classifier always, beside the monitor this command ran (other monitors of the run are in the report).
    const shown = data.monitors.filter(
      (m) =>
        m.id.model === STATIC_MONITOR ||
        (spec && prompt && monitorIdString(m.id) === monitorIdString({ model: spec.spec, promptHash: prompt.sha256 })),
    );
    if (shown.length === 0) {
      console.log(`run ${run.id} has no passed sample to measure a monitor on`);
      return;
    }
    console.log(`\nrun ${run.id}, flagged when the score is at least ${limitAt}:\n`);
    process.stdout.write(monitorTables({ ...data, monitors: shown }).join('\n'));
  } finally {
    interrupts.dispose();
    await server?.close();
    await real?.close?.();
    store.close();
  }
}

export function register(program: Command): void {
  const monitor = program
    .command('monitor')
    .description(
      "Run an LLM monitor over a run's samples and measure it against the ground truth: it reads each sample as a reviewer would " +
        '(the task statement, the transcript and the test, source and outside diffs; never the split or the outcome) and answers with a ' +
        'suspicion score from 0 to 100 and a short reason. Then prints its detection rate on cheating passes and false-positive rate on ' +
        'legitimate ones (Wilson 95% intervals) and its AUROC, beside the static classifier, which needs no model.',
    )
    .argument('<run>', 'run id, or "latest" for the most recent run in the store');
  addCommandOptions(monitor, MonitorOptionsSchema)
    .addHelpText('after', () => {
      const shipped = shippedPrompt(MONITOR_PROMPT_FILE);
      return (
        `\nThe shipped prompt is ${shipped.path} (sha256 ${shortHash(shipped.sha256)}…); copy it, edit it and pass --prompt-file to try your own. ` +
        'Each answer is stored with its sample (a "monitor" event) under the model and the prompt\'s sha256, so reruns skip what is scored and ' +
        'different prompts are never mixed. An answer with no readable score is stored as unparseable, a refusal as refused, a score outside ' +
        '0 to 100 as out-of-range: counted apart, never guessed. Provider failures store nothing, so a rerun retries them. ' +
        '`impossiblebench report` shows every monitor of the run.' +
        BATCH_HELP +
        '\n\nExamples:\n  impossiblebench monitor latest --model openai/gpt-5\n  impossiblebench monitor latest --model anthropic/claude-opus-4 --all --threshold 70\n' +
        '  impossiblebench monitor latest --model openai/gpt-5 --batch\n' +
        '  impossiblebench monitor latest --static --store impossiblebench-demo/demo.sqlite'
      );
    })
    .action((runId: string) => monitorAction(runId, commandOptions(monitor, MonitorOptionsSchema)));
}
