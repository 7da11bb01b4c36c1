import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '../core/errors.js';
import { splitOfFile } from './hub.js';
import { readDataset } from './load.js';
import type { LcbTask } from './task.js';

const SHA = '0123456789abcdef0123456789abcdef01234567';

function lcbParquet(variant: 'original' | 'oneoff', ids: string[]): Buffer {
  const n = ids.length;
  const col = (name: string, data: (string | null)[]) => ({ name, data, type: 'STRING' as const });
  return Buffer.from(
    parquetWriteBuffer({
      columnData: [
        col('task_id', ids),
        col(
          'prompt',
          ids.map(() => 'def f(x):\n    """Double x."""\n'),
        ),
        col(
          'entry_point',
          ids.map(() => 'f'),
        ),
        col(
          'test',
          ids.map(() => `def check(candidate):\n    assert candidate(1) == ${variant === 'original' ? 2 : 3}\n`),
        ),
        col(
          'original_test',
          ids.map(() => 'def check(candidate):\n    assert candidate(1) == 2\n'),
        ),
        col(
          'impossible_type',
          Array.from({ length: n }, () => (variant === 'original' ? null : variant)),
        ),
      ],
    }),
  );
}

/** A stand-in for the hub: the dataset info API, file downloads (through a redirect, as the CDN does) and the parquet API. */
class FakeHub {
  server!: Server;
  requests: string[] = [];
  /** Answer this many requests with 503 (Retry-After: 0) before answering properly. */
  busy = 0;
  files = new Map<string, Buffer>([
    ['data/original-00000-of-00001.parquet', lcbParquet('original', ['t1', 't2', 't3'])],
    ['data/oneoff-00000-of-00001.parquet', lcbParquet('oneoff', ['t1', 't2', 't3'])],
  ]);

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const url = req.url ?? '';
      this.requests.push(url);
      if (this.busy > 0) {
        this.busy--;
        res.writeHead(503, { 'retry-after': '0' });
        res.end('busy');
        return;
      }
      if (url === '/api/datasets/owner/lcb/revision/main') {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            id: 'owner/lcb',
            sha: SHA,
            siblings: [{ rfilename: '.gitattributes' }, { rfilename: 'README.md' }, ...[...this.files.keys()].map((rfilename) => ({ rfilename }))],
          }),
        );
        return;
      }
      if (url === '/api/datasets/owner/converted/revision/main') {
        res.end(JSON.stringify({ sha: SHA, siblings: [{ rfilename: 'README.md' }, { rfilename: 'loader.py' }] }));
        return;
      }
      if (url === '/api/datasets/owner/converted/parquet') {
        res.end(JSON.stringify({ default: { test: [`http://127.0.0.1:${this.port}/cdn/converted-0.parquet`] } }));
        return;
      }
      const resolve = `/datasets/owner/lcb/resolve/${SHA}/`;
      if (url.startsWith(resolve)) {
        res.writeHead(302, { location: `/cdn/${url.slice(resolve.length)}` });
        res.end();
        return;
      }
      if (url === '/cdn/converted-0.parquet') {
        res.end(this.files.get('data/original-00000-of-00001.parquet'));
        return;
      }
      if (url.startsWith('/cdn/')) {
        const file = this.files.get(decodeURIComponent(url.slice('/cdn/'.length)));
        if (file) {
          res.end(file);
          return;
        }
      }
      res.statusCode = 404;
      res.end('{"error":"Repository not found"}');
    });
    await new Promise<void>((ok) => this.server.listen(0, '127.0.0.1', ok));
    return `http://127.0.0.1:${this.port}`;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  stop(): Promise<void> {
    return new Promise((ok) => this.server.close(() => ok()));
  }
}

let cache: string;
let hub: FakeHub;
let endpoint: string;

beforeEach(async () => {
  cache = await mkdtemp(join(tmpdir(), 'impossiblebench-hub-'));
  hub = new FakeHub();
  endpoint = await hub.start();
});

afterEach(async () => {
  if (hub.server.listening) await hub.stop();
  await rm(cache, { recursive: true, force: true });
});

async function allFiles(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('hf: datasets', () => {
  it('downloads once, then reads from the cache with the hub gone, and says what is missing offline', async () => {
    const first = await readDataset('hf:owner/lcb', { endpoint, cacheDir: cache, split: 'original', offline: false });
    expect(first.tasks.map((t) => [t.id, t.variant])).toEqual([
      ['t1', 'original'],
      ['t2', 'original'],
      ['t3', 'original'],
    ]);
    expect(first.sources).toEqual([`hf:owner/lcb@${SHA.slice(0, 12)} original`]);
    expect(hub.requests).toEqual([
      '/api/datasets/owner/lcb/revision/main',
      `/datasets/owner/lcb/resolve/${SHA}/data/original-00000-of-00001.parquet`,
      '/cdn/data/original-00000-of-00001.parquet',
    ]);
    // Whole files only: no temporary file is left behind.
    expect((await allFiles(cache)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // --refresh asks the hub again but downloads nothing it already has for that commit.
    const refreshed = await readDataset('hf:owner/lcb', { endpoint, cacheDir: cache, split: 'original', offline: false, refresh: true });
    expect(refreshed.tasks).toEqual(first.tasks);
    expect(hub.requests.slice(3)).toEqual(['/api/datasets/owner/lcb/revision/main']);

    await hub.stop();
    const again = await readDataset('hf:owner/lcb', { endpoint, cacheDir: cache, split: 'original', offline: false });
    expect(again.tasks).toEqual(first.tasks);

    // The other split was never downloaded: offline mode names the file it lacks.
    await expect(readDataset('hf:owner/lcb', { endpoint, cacheDir: cache, split: 'oneoff', offline: true })).rejects.toThrow(
      'hf:owner/lcb: offline mode (HF_HUB_OFFLINE) and split oneoff is not fully in the cache; missing: data/oneoff-00000-of-00001.parquet',
    );
    // Online with the hub down, the same request says the hub cannot be reached.
    await expect(readDataset('hf:owner/lcb', { endpoint, cacheDir: cache, split: 'oneoff', offline: false })).rejects.toThrow(
      /hf:owner\/lcb: cannot reach the hub at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/,
    );

    const empty = join(cache, 'empty');
    const offline = readDataset('hf:owner/lcb', { endpoint, cacheDir: empty, split: 'original', offline: true });
    await expect(offline).rejects.toThrow(UserError);
    await expect(offline).rejects.toThrow(
      `hf:owner/lcb: offline mode (HF_HUB_OFFLINE) and revision main is not in the cache (${join(empty, 'hub', 'datasets', 'owner', 'lcb')})`,
    );
  });

  it('takes the hub address from HF_ENDPOINT and offline mode from HF_HUB_OFFLINE', async () => {
    const saved = { endpoint: process.env.HF_ENDPOINT, offline: process.env.HF_HUB_OFFLINE };
    try {
      process.env.HF_ENDPOINT = `${endpoint}/`;
      delete process.env.HF_HUB_OFFLINE;
      const tasks = (await readDataset('hf:owner/lcb', { cacheDir: cache })).tasks as LcbTask[];
      expect(tasks).toHaveLength(6);
      expect(tasks.filter((t) => t.variant === 'oneoff').map((t) => t.test)).toEqual(
        Array(3).fill('def check(candidate):\n    assert candidate(1) == 3\n'),
      );
      process.env.HF_HUB_OFFLINE = '1';
      await expect(readDataset('hf:owner/other', { cacheDir: cache })).rejects.toThrow(/offline mode/);
    } finally {
      for (const [key, value] of [
        ['HF_ENDPOINT', saved.endpoint],
        ['HF_HUB_OFFLINE', saved.offline],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it('fetches the originals too when a wanted split is missing, so its variants can be made', async () => {
    const tasks = await readDataset('hf:owner/lcb', { endpoint, cacheDir: cache, splits: ['conflicting'], offline: false });
    expect(new Set(tasks.tasks.map((t) => t.variant))).toEqual(new Set(['original']));
  });

  it("uses the hub's parquet conversion when the repository holds no data files", async () => {
    const report = await readDataset('hf:owner/converted', { endpoint, cacheDir: cache, offline: false });
    expect(report.splits).toEqual([{ name: 'test', rows: 3, tasks: 3 }]);
    expect(report.tasks.every((t) => t.variant === 'original')).toBe(true);
  });

  it('says a dataset or a split is not there in one line', async () => {
    await expect(readDataset('hf:owner/missing', { endpoint, cacheDir: cache, offline: false })).rejects.toThrow(
      /^hf:owner\/missing: not found on the hub/,
    );
    await expect(readDataset('hf:owner/lcb', { endpoint, cacheDir: cache, split: 'nope', offline: false })).rejects.toThrow(
      'hf:owner/lcb: no split named nope (splits: original, oneoff)',
    );
    await expect(readDataset('hf:not-a-name', { endpoint, cacheDir: cache })).rejects.toThrow('hf:not-a-name: a hub dataset is named OWNER/NAME');
  });

  it("reads split names from the hub's file naming", () => {
    expect(splitOfFile('data/original-00000-of-00001.parquet')).toBe('original');
    expect(splitOfFile('default/test-00000-of-00002-8f7e6d5c.parquet')).toBe('test');
    expect(splitOfFile('data/train.jsonl')).toBe('train');
    expect(splitOfFile('README.md')).toBeUndefined();
    expect(splitOfFile('dataset_info.json')).toBeUndefined();
  });

  it('lets a slow download finish but gives up on one that stalls, leaving no partial file', async () => {
    const body = hub.files.get('data/original-00000-of-00001.parquet')!;
    let mode: 'slow' | 'stall' = 'slow';
    const server = createServer((req, res) => {
      if (req.url === '/api/datasets/owner/slow/revision/main') {
        res.end(JSON.stringify({ sha: SHA, siblings: [{ rfilename: 'data/original-00000-of-00001.parquet' }] }));
        return;
      }
      res.writeHead(200, { 'content-length': String(body.length) });
      const pieces = Array.from({ length: 6 }, (_, i) => body.subarray(Math.floor((i * body.length) / 6), Math.floor(((i + 1) * body.length) / 6)));
      let i = 0;
      const next = () => {
        if (mode === 'stall' && i === 2) return; // half a file, then silence
        res.write(pieces[i++]!);
        if (i < pieces.length) setTimeout(next, 150);
        else res.end();
      };
      next();
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const slowEndpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const options = { endpoint: slowEndpoint, offline: false, timeoutMs: 600 };
      // 6 pieces 150 ms apart: longer than the limit in all, never silent that long.
      const slow = await readDataset('hf:owner/slow', { ...options, cacheDir: join(cache, 'slow') });
      expect(slow.tasks).toHaveLength(3);
      mode = 'stall';
      await expect(readDataset('hf:owner/slow', { ...options, cacheDir: join(cache, 'stall') })).rejects.toThrow(
        /download of .* broke off: nothing arrived for 0\.6s/,
      );
      expect((await allFiles(join(cache, 'stall'))).filter((f) => f.endsWith('.parquet') || f.endsWith('.tmp'))).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    }
  });

  it('tries again when the hub is busy, and gives up after three tries', async () => {
    hub.busy = 2;
    const report = await readDataset('hf:owner/lcb', { endpoint, cacheDir: cache, split: 'original', offline: false });
    expect(report.tasks).toHaveLength(3);
    expect(hub.requests.slice(0, 3)).toEqual(Array(3).fill('/api/datasets/owner/lcb/revision/main'));
    hub.busy = 3;
    await expect(readDataset('hf:owner/lcb', { endpoint, cacheDir: join(cache, 'other'), split: 'original', offline: false })).rejects.toThrow(
      /the hub answered HTTP 503 for .* \(after 3 tries\)$/,
    );
  });
});
