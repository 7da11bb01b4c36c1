import type { Command } from 'commander';
import { statSync } from 'node:fs';
import { DEFAULT_STORE_FILE, openStore } from '../../results/store.js';

/** The bytes of the store's file and its write-ahead log. */
function storeBytes(path: string): number {
  const size = (file: string) => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  };
  return size(path) + size(`${path}-wal`);
}

export function register(program: Command): void {
  const store = program.command('store').description('Maintain a results store.');
  store
    .command('index')
    .description(
      "Build the store's indexes of cheating kinds and transcript text, for a store written before this build had them: " +
        'the viewer then filters by kind and searches transcripts through the index. Any command that writes to the store builds them ' +
        'the first time it opens it; this one does only that. It takes one transaction, so a reader sees all of them or none.',
    )
    .argument('[store]', 'results store to index', DEFAULT_STORE_FILE)
    .addHelpText('after', '\nExamples:\n  impossiblebench store index\n  impossiblebench store index results.sqlite')
    .action((storePath: string) => {
      const before = storeBytes(storePath);
      const started = Date.now();
      const opened = openStore(storePath, { mustExist: true });
      try {
        const built = opened.builtOnOpen;
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        if (built.length === 0) console.log(`${storePath}: its indexes are already built`);
        else
          console.log(
            `${storePath}: indexed ${built.join(' and ')} in ${seconds} s (the store grew from ${mb(before)} to ${mb(storeBytes(opened.path))})`,
          );
      } finally {
        opened.close();
      }
    });
}

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
