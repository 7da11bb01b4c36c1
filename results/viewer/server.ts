import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../../core/errors.js';
import { htmlReportStream } from '../html/stream-report.js';
import { STYLES } from '../html/styles.js';
import type { ResultStore } from '../store.js';
import { indexFacets, listRunsWithCounts, parseIndexQuery, queryIndex } from './index-query.js';
import { IndexKinds } from './index-kinds.js';
import { runSummary } from './run-summary.js';
import { parseBy, runComparison } from './run-compare.js';
import { sampleDetail } from './sample-detail.js';
import { indexCommand, type IndexState } from '../store-index.js';
import { VIEWER_CSP, viewerPage } from './page.js';

export interface ViewerOptions {
  host: string;
  port: number;
}

export interface Viewer {
  /** The address to open: with the token in its path when one is needed. */
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** What the pages say about the store: which indexes it holds, and the command that builds the missing ones. */
export interface StoreStatus {
  indexes: IndexState;
  indexCommand: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** The compiled browser modules: built by tsc beside this file, served as they are. */
const CLIENT_DIR = join(dirname(fileURLToPath(import.meta.url)), 'client');
const CLIENT_FILE = /^client\/[a-z-]+\.js$/;

const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, csp = VIEWER_CSP): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Security-Policy': csp, 'Cache-Control': 'no-store', ...SECURITY_HEADERS });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

/** Streams a run's report page (the `report --html` page, without evidence: the viewer shows each sample). */
async function sendRunReport(store: ResultStore, runId: string, res: ServerResponse): Promise<void> {
  const page = htmlReportStream(store, runId, { maxTranscripts: 0, elsewhere: "this viewer's Samples page" });
  const pageCsp = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";
  res.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': pageCsp,
    'Cache-Control': 'no-store',
    ...SECURITY_HEADERS,
  });
  for (const chunk of page.chunks()) if (!res.write(chunk)) await once(res, 'drain');
  res.end();
}

/** Answers one request below the base path: the page, its modules, or the JSON API. */
async function route(store: ResultStore, kinds: IndexKinds, path: string, url: URL, res: ServerResponse): Promise<void> {
  if (path === '') return send(res, 200, 'text/html; charset=utf-8', viewerPage(STYLES));
  if (CLIENT_FILE.test(path)) return send(res, 200, 'text/javascript; charset=utf-8', readFileSync(join(CLIENT_DIR, path.slice('client/'.length))));
  if (path === 'api/runs') return sendJson(res, 200, listRunsWithCounts(store.database));
  // Looked up per request: `store index` may build the indexes while the viewer is open.
  const indexes = store.indexState();
  if (path === 'api/store') return sendJson(res, 200, { indexes, indexCommand: indexCommand(store.path) } satisfies StoreStatus);
  if (path === 'api/facets') return sendJson(res, 200, indexFacets(store.database, indexes));
  if (path === 'api/samples') {
    const page = queryIndex(store.database, parseIndexQuery(url.searchParams), indexes);
    return sendJson(res, 200, { total: page.total, rows: indexes.kinds ? page.rows : kinds.of(page.rows) });
  }
  const summary = /^api\/runs\/([A-Za-z0-9][A-Za-z0-9._-]{0,99})\/summary$/.exec(path);
  if (summary) return sendJson(res, 200, runSummary(store, summary[1]!, indexes));
  const compare = /^api\/runs\/([A-Za-z0-9][A-Za-z0-9._-]{0,99})\/compare$/.exec(path);
  if (compare) return sendJson(res, 200, runComparison(store, compare[1]!, parseBy(url.searchParams.get('by'))));
  const sample = /^api\/samples\/(\d{1,15})$/.exec(path);
  if (sample) {
    const detail = sampleDetail(store, Number(sample[1]));
    return detail ? sendJson(res, 200, detail) : sendJson(res, 404, { error: `no sample ${sample[1]} in the store` });
  }
  const report = /^runs\/([A-Za-z0-9][A-Za-z0-9._-]{0,99})\/report$/.exec(path);
  if (report) return sendRunReport(store, report[1]!, res);
  sendJson(res, 404, { error: 'not found' });
}

function tokenMatches(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function handler(store: ResultStore, token: string | null, allowedHosts: () => Set<string> | null) {
  const kinds = new IndexKinds(store);
  return async (req: IncomingMessage, res: ServerResponse) => {
    try {
      // A page on another site cannot reach a loopback viewer through a name it controls (DNS rebinding).
      const hosts = allowedHosts();
      if (hosts && !hosts.has(req.headers.host ?? '')) return sendJson(res, 421, { error: 'unexpected Host header' });
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'the viewer only reads' });
      const url = new URL(req.url ?? '/', 'http://viewer.invalid');
      let path = url.pathname.replace(/^\//, '');
      if (token) {
        const slash = path.indexOf('/');
        if (slash < 0 || !tokenMatches(path.slice(0, slash), token)) return sendJson(res, 403, { error: 'this viewer needs the token in its URL' });
        path = path.slice(slash + 1);
      }
      await route(store, kinds, path, url, res);
    } catch (err) {
      if (res.headersSent) return res.destroy();
      if (err instanceof UserError) return sendJson(res, 400, { error: err.message });
      sendJson(res, 500, { error: (err as Error).message });
    }
  };
}

/** Starts the viewer over an open (read-only) store; it listens until closed. */
export async function startViewer(store: ResultStore, options: ViewerOptions): Promise<Viewer> {
  const loopback = LOOPBACK.has(options.host);
  // Elsewhere than loopback anyone on the network could read the store: the URL carries a secret.
  const token = loopback ? null : randomBytes(18).toString('base64url');
  let allowedHosts: Set<string> | null = null;
  const server = createServer(handler(store, token, () => allowedHosts));
  server.listen(options.port, options.host);
  await Promise.race([
    once(server, 'listening'),
    once(server, 'error').then(([err]) => Promise.reject(listenError(err as NodeJS.ErrnoException, options))),
  ]);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  if (loopback) allowedHosts = new Set([...LOOPBACK].map((h) => `${h.includes(':') ? `[${h}]` : h}:${port}`));
  return {
    url: `http://${shownHost}:${port}/${token ? `${token}/` : ''}`,
    server,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function listenError(err: NodeJS.ErrnoException, options: ViewerOptions): Error {
  if (err.code === 'EADDRINUSE')
    return new UserError(`port ${options.port} on ${options.host} is in use`, 'pass --port N, or --port 0 for any free port');
  if (err.code === 'EADDRNOTAVAIL') return new UserError(`cannot listen on ${options.host}: no such address on this machine`);
  if (err.code === 'EACCES') return new UserError(`cannot listen on port ${options.port}: permission denied`);
  return err;
}
