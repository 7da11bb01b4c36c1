import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { openStore, type OpenStoreOptions, type ResultStore } from '../store.js';

export interface TempStoreOptions {
  /** Starts the folder's name in the temp dir, so a leftover says which tests made it. Default `ib-store-`. */
  prefix?: string;
  /** The store's file name in the folder. Default `s.sqlite`. */
  file?: string;
  /** A fresh folder and store for every test (the default), or one for all tests of the file or describe block. */
  per?: 'test' | 'file';
}

/** A results store in a folder of its own, opened before each test (or the first) and removed after. */
export interface TempStore {
  /** The store's folder; a test may write its outputs beside the store. */
  readonly dir: string;
  /** The store's file. */
  readonly path: string;
  readonly store: ResultStore;
  /** Closes the store and opens its file again, as a later command would; the fixture closes the new one. */
  reopen(options?: OpenStoreOptions): ResultStore;
}

export function useTempStore(options: TempStoreOptions = {}): TempStore {
  const file = options.file ?? 's.sqlite';
  let open: { dir: string; store: ResultStore } | undefined;
  const live = () => {
    if (!open) throw new Error('the temp store opens in a before hook: use it in a hook or a test, after useTempStore()');
    return open;
  };
  const [before, after] = options.per === 'file' ? [beforeAll, afterAll] : [beforeEach, afterEach];
  before(() => {
    const dir = mkdtempSync(join(tmpdir(), options.prefix ?? 'ib-store-'));
    open = { dir, store: openStore(join(dir, file)) };
  });
  after(() => {
    if (!open) return;
    open.store.close();
    rmSync(open.dir, { recursive: true, force: true });
    open = undefined;
  });
  return {
    get dir() {
      return live().dir;
    },
    get path() {
      return join(live().dir, file);
    },
    get store() {
      return live().store;
    },
    reopen(reopenOptions) {
      const current = live();
      current.store.close();
      current.store = openStore(join(current.dir, file), reopenOptions);
      return current.store;
    },
  };
}
