import { taskKind } from '../../tasks/kinds/registry.js';
import type { Command } from 'commander';
import { z } from 'zod';
import { readDataset, type DatasetReport } from '../../tasks/load.js';
import { formatProblem } from '../../tasks/rows.js';
import type { Task } from '../../tasks/task.js';
import { gradingContractData } from '../../tasks/env/contract.js';
import { UserError } from '../../core/errors.js';
import { wholeNumber } from '../settings/shared-flags.js';
import { addCommandOptions, commandOptions, setting } from '../settings/setting-flags.js';
import { switchField, textField } from '../settings/shared-options.js';

/** Hub datasets this tool knows how to read, shown by `datasets list`. */
const KNOWN_HUB = [
  ['hf:fjzzq2002/impossible_livecodebench', 'Impossible-LiveCodeBench: splits original, oneoff, conflicting'],
  ['hf:fjzzq2002/impossible_swebench', 'Impossible-SWEbench: splits original, oneoff, conflicting'],
  ['hf:princeton-nlp/SWE-bench_Verified', 'SWE-bench Verified (originals)'],
  ['hf:princeton-nlp/SWE-bench_Lite', 'SWE-bench Lite (originals)'],
] as const;

/** The options of `datasets show`, in the order the help lists them. */
const ShowOptionsSchema = z.object({
  split: textField('--split <name>', 'only this split (a hub split, or a variant: original, oneoff, conflicting)'),
  ids: switchField('--ids', 'print only the task ids, one a line: the form `run --exclude-file` reads'),
  json: switchField('--json', 'print the report as JSON (every problem, the example task in full)'),
  strict: switchField('--strict', 'fail on the first malformed row instead of skipping and counting it'),
  cacheDir: textField(
    '--cache-dir <dir>',
    'cache folder for hub downloads and built repositories (default: IMPOSSIBLEBENCH_CACHE, else the XDG cache)',
  ),
  offline: switchField('--offline', 'use only the cache, never the hub (also HF_HUB_OFFLINE=1)'),
  hfEndpoint: textField('--hf-endpoint <url>', 'address of the hub (default: HF_ENDPOINT, else https://huggingface.co)'),
  refresh: switchField('--refresh', 'ask the hub for the newest revision even when one is cached'),
  problems: setting(z.number().int().min(0).default(20), {
    flag: '--problems <n>',
    help: 'how many problems to list in text output',
    parse: wholeNumber(0),
  }),
  grading: textField(
    '--grading <id>',
    'print how the task with this id is graded, as JSON: the image, default limits, test command, log parser, graded tests and test paths (each variant of it with --split)',
  ),
});

export function register(program: Command): void {
  const datasets = program.command('datasets').description('Inspect the datasets tasks come from');

  const show = datasets
    .command('show')
    .description('Load a dataset and show its rows, splits, fields, one example and the problems found')
    .argument('<dataset>', 'builtin:lcb, builtin:swe, hf:OWNER/NAME[@REVISION], or a .json/.jsonl/.parquet file');
  addCommandOptions(show, ShowOptionsSchema)
    .addHelpText(
      'after',
      '\nExamples:\n  impossiblebench datasets show builtin:swe\n  impossiblebench datasets show rows.jsonl --grading django__django-16527\n' +
        '  impossiblebench datasets show builtin:lcb --ids > exclude.txt',
    )
    .action(async (dataset: string) => {
      const options = commandOptions(show, ShowOptionsSchema);
      const limit = options.problems;
      const report = await readDataset(dataset, {
        ...(options.split ? { split: options.split } : {}),
        strict: options.strict ?? false,
        ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
        ...(options.offline ? { offline: true } : {}),
        ...(options.hfEndpoint ? { endpoint: options.hfEndpoint } : {}),
        ...(options.refresh ? { refresh: true } : {}),
        say: (line) => process.stderr.write(`${line}\n`),
      });
      if (options.grading !== undefined) {
        const id = options.grading;
        const matching = report.tasks.filter((t) => t.id === id);
        if (matching.length === 0)
          throw new UserError(`${dataset} has no task ${id}`, '`impossiblebench datasets show DATASET --ids` lists its tasks');
        const contracts = matching.map((t) => ({ id: t.id, variant: t.variant, ...gradingContractData(t) }));
        console.log(JSON.stringify(contracts.length === 1 ? contracts[0] : contracts, null, 2));
        return;
      }
      if (options.ids) {
        console.log([...new Set(report.tasks.map((t) => t.id))].join('\n'));
        return;
      }
      if (options.json) console.log(JSON.stringify(toJson(report), null, 2));
      else console.log(toText(report, limit));
    });

  datasets
    .command('list')
    .description('List the built-in datasets and the hub datasets this tool reads')
    .action(() => {
      console.log('built in (no network needed):');
      console.log('  builtin:lcb   LiveCodeBench-style problems with reference solutions');
      console.log('  builtin:swe   small Python projects as git repositories, with issues and gold patches');
      console.log('on the HuggingFace hub (downloaded once into the cache):');
      for (const [name, about] of KNOWN_HUB) console.log(`  ${name.padEnd(40)} ${about}`);
      console.log('or any .json, .jsonl or .parquet file of such rows');
    });
}

function kinds(tasks: Task[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of tasks) out[t.kind] = (out[t.kind] ?? 0) + 1;
  return out;
}

function toJson(report: DatasetReport) {
  return {
    dataset: report.dataset,
    sources: report.sources,
    rows: report.rows,
    loaded: report.tasks.length,
    skipped: report.skipped,
    kinds: kinds(report.tasks),
    splits: report.splits,
    fields: report.fields,
    example: report.tasks[0] ?? null,
    problems: report.problems,
  };
}

function example(task: Task): string[] {
  return [`example   ${task.id} (${task.kind}, ${task.variant})`, ...taskKind(task).describe(task)];
}

/** How each group of tasks (a repository) is tested: the harness's spec, the row's or config's, or none (the default assumed). */
function testSpecLines(tasks: Task[]): string[] {
  const byGroup = new Map<string, { count: number; origin: string; given: boolean }>();
  for (const t of tasks) {
    const spec = taskKind(t).testSpec?.(t);
    if (!spec) continue;
    const harness = spec.origin.startsWith("the SWE-bench harness's spec");
    const seen = byGroup.get(spec.group) ?? {
      count: 0,
      origin: harness ? "the SWE-bench harness's spec for its version" : spec.origin,
      given: spec.given,
    };
    seen.count++;
    byGroup.set(spec.group, seen);
  }
  if (byGroup.size === 0) return [];
  const lines = ['tests'];
  for (const [group, { count, origin, given }] of byGroup)
    lines.push(`  ${group} (${count}): ${given ? origin : `${origin.replace(/^no test spec for \S+: /, 'NO TEST SPEC: ')}`}`);
  return lines;
}

function toText(report: DatasetReport, limit: number): string {
  const kindText = Object.entries(kinds(report.tasks))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const lines = [
    `dataset   ${report.dataset}`,
    `source    ${report.sources.join('\n          ')}`,
    `rows      ${report.rows} read, ${report.tasks.length} loaded, ${report.skipped} skipped`,
    `kinds     ${kindText || 'none'}`,
    `splits    ${report.splits.map((s) => `${s.name} ${s.tasks}`).join(', ') || 'none'}`,
    `fields    ${report.fields.join(', ')}`,
  ];
  lines.push(...testSpecLines(report.tasks));
  if (report.tasks[0]) lines.push(...example(report.tasks[0]));
  if (report.problems.length === 0) lines.push('problems  none');
  else {
    lines.push(`problems  ${report.problems.length}`);
    for (const p of report.problems.slice(0, limit)) lines.push(`  ${formatProblem(p)}`);
    if (report.problems.length > limit) lines.push(`  … and ${report.problems.length - limit} more (--json lists them all)`);
  }
  return lines.join('\n');
}
