import type { Command } from 'commander';
import { z } from 'zod';
import { once } from 'node:events';
import { UserError } from '../../core/errors.js';
import { DEFAULT_STORE_FILE, openStore } from '../../results/store.js';
import { startViewer } from '../../results/viewer/server.js';
import { wholeNumber } from '../settings/shared-flags.js';
import { addCommandOptions, commandOptions, setting } from '../settings/setting-flags.js';

/** The options of `view`, in the order the help lists them. */
const ViewOptionsSchema = z.object({
  host: setting(z.string().default('127.0.0.1'), {
    flag: '--host <address>',
    help: 'address to listen on; anything but 127.0.0.1, localhost or ::1 puts a random token in the URL',
  }),
  port: setting(z.number().int().min(0).max(65535).default(8765), {
    flag: '--port <n>',
    help: 'port to listen on (0 picks a free one)',
    parse: wholeNumber(0, 65535),
  }),
});

export function register(program: Command): void {
  const view = program
    .command('view')
    .description(
      'Serve a local web viewer over a results store, read-only: the runs with their reports, an index of every sample that filters, ' +
        'sorts and searches the transcripts, and each sample (transcript, diffs, grading log, tamper signs, verdicts) at a link of its own. ' +
        'It works while a run is writing to the store; reload to see new samples. Ctrl-C stops it.',
    )
    .argument('[store]', 'results store to read', DEFAULT_STORE_FILE);
  addCommandOptions(view, ViewOptionsSchema)
    .addHelpText(
      'after',
      '\nExamples:\n  impossiblebench view\n  impossiblebench view results.sqlite --port 0\n  impossiblebench view results.sqlite --host 0.0.0.0',
    )
    .action(async (storePath: string) => {
      const opts = commandOptions(view, ViewOptionsSchema);
      const { port } = opts;
      if (!opts.host.trim()) throw new UserError('--host needs an address');
      const store = openStore(storePath, { mustExist: true, readonly: true });
      try {
        const viewer = await startViewer(store, { host: opts.host, port });
        console.log(`impossiblebench view: ${viewer.url}`);
        console.error('serving read-only; Ctrl-C stops');
        await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
        await viewer.close();
      } finally {
        store.close();
      }
    });
}
