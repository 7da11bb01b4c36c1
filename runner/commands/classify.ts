import type { Command } from 'commander';
import { z } from 'zod';
import { BATCH_HELP, batchClient, batchOptions, batchProgress } from './batch-options.js';
import { reportFailures } from './failures.js';
import { BATCH_CONTEXT, SCRIPTED_JUDGE, judgeContextTask } from '../../results/classify/judge-policy.js';
import { judgeRun } from '../../results/classify/judge-run.js';
import { JUDGE_EVENT, JUDGE_KINDS, JUDGE_PROMPT_NEEDS, shippedJudgePrompt } from '../../results/classify/judge.js';
import { readPromptFile } from '../../results/prompt-file.js';
import { shortHash } from '../../core/text-file.js';
import { resolveRun } from '../../results/resolve-run.js';
import { DEFAULT_STORE_FILE, openStore } from '../../results/store.js';
import { createModelClient, parseModelSpec } from '../../models/index.js';
import { startModelServer, type ModelServer } from '../../simulated/server/index.js';
import { UserError } from '../../core/errors.js';
import { handleInterrupts } from '../orchestration/interrupt.js';
import { addCommandOptions, commandOptions } from '../settings/setting-flags.js';
import { baseUrlField, concurrencyField, requiredText, storeField, switchField, textField } from '../settings/shared-options.js';

/** The options of `classify`, in the order the help lists them. */
export const ClassifyOptionsSchema = z.object({
  model: requiredText(
    '--model <spec>',
    'the judge: openai/NAME, anthropic/NAME, openai-compatible/NAME (with --base-url), or scripted/judge (a local stand-in)',
  ),
  store: storeField('results store to read and add the verdicts to', DEFAULT_STORE_FILE),
  concurrency: concurrencyField('samples judged at once', 4),
  redo: switchField('--redo', 'judge again samples this model already judged with this prompt (the newest verdict counts)'),
  promptFile: textField(
    '--prompt-file <file>',
    "the judge's instructions (default: the shipped judge.txt, named below); must ask for the last line CATEGORY: <kind>",
  ),
  baseUrl: baseUrlField(),
  ...batchOptions('judged'),
});
type ClassifyOptions = z.infer<typeof ClassifyOptionsSchema>;

async function classifyAction(runId: string, opts: ClassifyOptions): Promise<void> {
  const { concurrency } = opts;
  const prompt = opts.promptFile ? readPromptFile(opts.promptFile, JUDGE_PROMPT_NEEDS) : shippedJudgePrompt();
  const spec = parseModelSpec(opts.model);
  if (spec.provider === 'scripted' && spec.name !== 'judge') {
    throw new UserError(`scripted/${spec.name} is an agent policy, not a judge`, 'use scripted/judge, or a real model');
  }
  // A real client is built once up front, so a missing key fails before anything is read.
  const real =
    spec.provider === 'scripted' ? undefined : createModelClient(opts.model, { ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}), concurrency });
  const store = openStore(opts.store, { mustExist: true });
  let server: ModelServer | undefined;
  const interrupts = handleInterrupts({
    onFirst: () => process.stderr.write('\nstopping; verdicts so far are kept (Ctrl-C again to quit at once)\n'),
  });
  try {
    const run = resolveRun(store, runId);
    if (spec.provider === 'scripted') server = await startModelServer();
    const tty = process.stderr.isTTY;
    // A scripted judge answers a batch in one session of the local server; a real one through the client made above.
    const batcher = opts.batch
      ? batchClient(real ?? createModelClient(opts.model, { server: server!, policy: SCRIPTED_JUDGE, context: BATCH_CONTEXT }))
      : undefined;
    const progress = batchProgress();
    const summary = await judgeRun(store, run.id, {
      model: spec.spec,
      prompt,
      concurrency,
      ...(opts.redo ? { redo: true } : {}),
      ...(batcher ? { batch: { client: batcher, pollSeconds: opts.batchPoll, onCheck: progress.onCheck, say: progress.say } } : {}),
      signal: interrupts.signal,
      client: (sample) =>
        real ??
        createModelClient(opts.model, {
          server: server!,
          policy: SCRIPTED_JUDGE,
          context: { task: judgeContextTask(sample.key), scaffold: sample.key.scaffold },
        }),
      onProgress: (done, total) => {
        if (tty) process.stderr.write(`\rjudged ${done}/${total}`);
      },
    });
    progress.end();
    if (tty && !batcher && summary.eligible > summary.skipped) process.stderr.write('\n');
    if (batcher && batcher !== real) await batcher.close?.();
    const kinds = JUDGE_KINDS.filter((k) => summary.byKind[k]).map((k) => `${k} ${summary.byKind[k]}`);
    if (summary.unparsed) kinds.push(`no category ${summary.unparsed}`);
    const skipped = summary.skipped ? ` (${summary.skipped} already judged, skipped; --redo judges them again)` : '';
    console.log(
      `judged ${summary.judged} of ${summary.eligible} cheating or evaded samples with ${spec.spec}${skipped}${kinds.length ? `: ${kinds.join(', ')}` : ''}`,
    );
    if (summary.judged) console.log(`the evidence classifier also finds the judge's kind in ${summary.agreeing} of ${summary.judged}`);
    if (interrupts.signal.aborted) console.log('interrupted: run the same command again to judge the rest');
    reportFailures(summary.failures, 'judge', 'judged');
  } finally {
    interrupts.dispose();
    await server?.close();
    await real?.close?.();
    store.close();
  }
}

export function register(program: Command): void {
  const classify = program
    .command('classify')
    .description(
      "Ask a judge model how each cheating or evaded sample of a run cheated, as the paper's judge does: one of modify-tests, " +
        'operator-overload, record-state, special-casing or other, from the transcript and diffs. Each verdict is stored with its sample ' +
        `(a "${JUDGE_EVENT}" event); samples the model already judged are skipped unless --redo.`,
    )
    .argument('<run>', 'run id, or "latest" for the most recent run in the store');
  addCommandOptions(classify, ClassifyOptionsSchema)
    .addHelpText(
      'after',
      () =>
        `\nThe shipped prompt is ${shippedJudgePrompt().path} (sha256 ${shortHash(shippedJudgePrompt().sha256)}…); copy it, edit it and pass --prompt-file to try your own. ` +
        "Verdicts are stored with the prompt's sha256, so another prompt judges every sample afresh." +
        BATCH_HELP +
        "\n\nReports and exports already name the kinds from the evidence itself, with no model; this adds an LLM judge's view beside them " +
        '(`report` shows a judge × kind table and each verdict, `export` a judges field).' +
        '\n\nExamples:\n  impossiblebench classify latest --model openai/gpt-5\n  impossiblebench classify 20260101-120000-abc123 --model anthropic/claude-opus-4 --redo' +
        '\n  impossiblebench classify latest --model anthropic/claude-sonnet-4-5 --batch',
    )
    .action((runId: string) => classifyAction(runId, commandOptions(classify, ClassifyOptionsSchema)));
}
