import { execa } from 'execa';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../results/store.js';
import { storeSampleRun } from '../../results/testing/sample-run.js';

// These run the built CLI (`npm run build` first; `npm test` does).
const BIN = fileURLToPath(new URL('../../bin/impossiblebench.js', import.meta.url));

let dir: string;
let storeFile: string;
const cli = (...args: string[]) => execa(process.execPath, [BIN, ...args], { cwd: dir, reject: false, env: { IMPOSSIBLEBENCH_DEBUG: '' } });
const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ib-cli-view-'));
  storeFile = join(dir, 'results.sqlite');
  const store = openStore(storeFile);
  storeSampleRun(store, 'sample-run');
  store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('impossiblebench view', () => {
  it('refuses bad input with one line', async () => {
    const missing = await cli('view', join(dir, 'none.sqlite'));
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/^impossiblebench: no results store at .*none\.sqlite\n {2}fix: /);
    const port = await cli('view', storeFile, '--port', 'eighty');
    // A flag's value is checked by the parser of its type, which every command shares: a usage error, exit status 2.
    expect([port.exitCode, port.stderr.split('\n')[0]]).toEqual([
      2,
      `error: option '--port <n>' argument 'eighty' is invalid. expected a whole number from 0 to 65535, got "eighty"`,
    ]);
    const high = await cli('view', storeFile, '--port', '70000');
    expect(high.stderr.split('\n')[0]).toBe(
      `error: option '--port <n>' argument '70000' is invalid. expected a whole number from 0 to 65535, got "70000"`,
    );
    const cap = await cli('report', 'sample-run', '--store', storeFile, '--html', join(dir, 'r.html'), '--max-transcripts', '-1');
    expect(cap.stderr.split('\n')[0]).toBe(`error: option '--max-transcripts <n>' argument '-1' is invalid. expected a whole number ≥ 0, got "-1"`);
  });

  it('serves every page and API without changing a byte of the store', async () => {
    const before = digest(storeFile);
    const view = execa(process.execPath, [BIN, 'view', storeFile, '--port', '0'], { reject: false, buffer: false });
    try {
      const url = await new Promise<string>((resolve) => {
        let seen = '';
        view.stdout!.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          const found = /(http:\/\/\S+)/.exec(seen);
          if (found) resolve(found[1]!);
        });
      });
      const get = (path: string) => fetch(`${url}${path}`);
      const page = await get('');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      for (const path of ['api/runs', 'api/facets', 'api/samples?label=cheating', 'api/samples/1', 'runs/sample-run/report', 'client/main.js']) {
        expect((await get(path)).status, path).toBe(200);
      }
      expect((await get('api/samples/999999')).status).toBe(404);
      expect((await get('api/samples?sort=secret')).status).toBe(400);
      expect((await get('client/../server.js')).status).toBe(404);
      expect((await fetch(`${url}api/runs`, { method: 'POST' })).status).toBe(405);
    } finally {
      view.kill('SIGTERM');
      await view;
    }
    expect(digest(storeFile)).toBe(before);
  });
});
