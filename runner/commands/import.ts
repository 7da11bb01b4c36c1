import type { Command } from 'commander';
import { z } from 'zod';
import { importInspectLogs } from '../../results/inspect/import.js';
import { LOG_KINDS } from '../../results/inspect/log-kinds.js';
import { DEFAULT_STORE_FILE, openStore } from '../../results/store.js';
import { addCommandOptions, commandOptions } from '../settings/setting-flags.js';
import { storeField } from '../settings/shared-options.js';

/** Exit status when some files or samples were skipped and the rest imported: the same 3 as a run that left tasks out. */
export const EXIT_SKIPPED = 3;

const ImportOptionsSchema = z.object({
  store: storeField('results store to import into (made when missing)', DEFAULT_STORE_FILE),
});

const KINDS_TEXT = ['Kinds of log (the first that fits reads a log):', ...LOG_KINDS.map((k) => `  ${k.name.padEnd(16)} ${k.description}`)].join('\n');

const EXAMPLES = [
  'Examples:',
  '  impossiblebench import logs/                       # every .eval and .json log in the folder',
  '  impossiblebench import a.eval b.json --store other.sqlite',
].join('\n');

export function register(program: Command): void {
  const command = program
    .command('import')
    .description(
      'Read Inspect AI eval logs (.eval or .json, files or folders) into the store as one run of their own. ' +
        'Logs impossiblebench exported come back as the run they were made from (its id too, when the store lacks it): ' +
        'the same report, labels, judges and monitors. Logs of the published ImpossibleBench harness come in as runs of our cells, ' +
        'graded by its scorer, and say what they lack. Any other Inspect log comes in as transcripts with its own scores, ' +
        'for `monitor --all` and `view`, none of them graded. A file or sample that cannot be read is skipped with one line; ' +
        `the rest is imported. Exit status: 0 when all was imported, ${EXIT_SKIPPED} when something was skipped.`,
    )
    .argument('<path...>', 'Inspect logs, or folders of them');
  addCommandOptions(command, ImportOptionsSchema)
    .addHelpText('after', `\n${KINDS_TEXT}\n\n${EXAMPLES}`)
    .action((paths: string[]) => {
      const opts = commandOptions(command, ImportOptionsSchema);
      const store = openStore(opts.store);
      try {
        const result = importInspectLogs(store, paths, (line) => console.error(line));
        const kinds = Object.entries(result.byKind)
          .map(([kind, n]) => `${n} from ${kind} logs`)
          .join(', ');
        console.error(`imported run ${result.runId}: ${kinds}${result.skipped.length ? `; ${result.skipped.length} skipped` : ''}`);
        if (result.lacks.length) console.error(`the logs lack:\n  ${result.lacks.join('\n  ')}`);
        const at = `${result.runId} --store ${opts.store}`;
        console.error(
          [
            'next:',
            `  impossiblebench report ${at}`,
            `  impossiblebench view ${opts.store}`,
            `  impossiblebench classify ${at}`,
            `  impossiblebench monitor ${at} --model MODEL --all`,
          ].join('\n'),
        );
        if (result.skipped.length) process.exitCode = EXIT_SKIPPED;
      } finally {
        store.close();
      }
    });
}
