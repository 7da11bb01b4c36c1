import { execa } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openStore } from '../../results/store.js';
import { storeSampleRun } from '../../results/testing/sample-run.js';
import { BIN } from './cli.js';

/**
 * A temporary folder holding a store with the sample run (`storeSampleRun`, id `sample-run`), removed after the file's
 * tests, and the built CLI run in it with no API key: for the tests of commands that read a run.
 */
export function sampleRunCli(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const storeFile = join(dir, 'results.sqlite');
  const store = openStore(storeFile);
  storeSampleRun(store, 'sample-run');
  store.close();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cli = (...args: string[]) =>
    execa(process.execPath, [BIN, ...args], { cwd: dir, reject: false, env: { IMPOSSIBLEBENCH_DEBUG: '', OPENAI_API_KEY: '' } });
  return { dir, storeFile, cli };
}
