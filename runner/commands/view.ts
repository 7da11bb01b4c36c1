import type { Command } from 'commander';
import { once } from 'node:events';
import { UserError } from '../../core/errors.js';
import { DEFAULT_STORE_FILE, openStore } from '../../results/store.js';
import { startViewer } from '../../results/viewer/server.js';
import { wholeNumber } from '../settings/shared-flags.js';

interface ViewOptions {
  host: string;
  port: number;
}

export function register(program: Command): void {
  program
    .command('view')
    .description(
      'Serve a local web viewer over a results store, read-only: the runs with their reports, an index of every sample that filters, ' +
        'sorts and searches the transcripts, and each sample (transcript, diffs, grading log, tamper signs, verdicts) at a link of its own. ' +
        'It works while a run is writing to the store; reload to see new samples. Ctrl-C stops it.',
    )
    .argument('[store]', 'results store to read', DEFAULT_STORE_FILE)
    .option('--host <address>', 'address to listen on; anything but 127.0.0.1, localhost or ::1 puts a random token in the URL', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0 picks a free one)', wholeNumber(0, 65535), 8765)
    .addHelpText(
      'after',
      '\nExamples:\n  impossiblebench view\n  impossiblebench view results.sqlite --port 0\n  impossiblebench view results.sqlite --host 0.0.0.0',
    )
    .action(async (storePath: string, opts: ViewOptions) => {
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
