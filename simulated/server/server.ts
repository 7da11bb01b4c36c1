import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatchDesk } from './batches.js';
import { newPromptCache } from './cache.js';
import { FaultConfigSchema, type FaultConfig, type ResolvedFaultConfig } from './faults.js';
import { fail, handle, type ServerState, type Session, type Wire } from './handle.js';
import { GZIPPED, HttpError } from './http.js';
import { ResponsesSessions } from './responses-wire.js';
import type { ModelServer, ModelServerOptions } from './types.js';

export type { ModelServer, ModelServerOptions, SessionOptions, SessionStats } from './types.js';

function parseFaults(config: FaultConfig | undefined, what: string): ResolvedFaultConfig {
  const parsed = FaultConfigSchema.safeParse(config ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${what}: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** The waits of slow answers: each ends early when its client gives up, and all at once when the server closes. */
function slowAnswers() {
  const pending = new Set<NodeJS.Timeout>();
  const delay = (ms: number, res: ServerResponse) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        pending.delete(timer);
        resolve();
      }, ms);
      pending.add(timer);
      // A client that gave up (timeout) frees the slot at once. (The request's own 'close' fires as
      // soon as its body is read, so it is the response that tells.)
      res.once('close', () => {
        clearTimeout(timer);
        pending.delete(timer);
        resolve();
      });
    });
  const clear = () => {
    for (const timer of pending) clearTimeout(timer);
    pending.clear();
  };
  return { delay, clear };
}

/** Listens where the options say (127.0.0.1, any free port by default); returns the server's URL. */
async function listen(server: Server, options: ModelServerOptions): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** The request listener: each request served by `handle`, counted in `load`, an error answered in its wire's format. */
function serveCounted(
  state: ServerState,
  load: { requests: number; inFlight: number; maxInFlight: number; gzipped: number },
  options: ModelServerOptions,
) {
  return (req: IncomingMessage, res: ServerResponse) => {
    load.requests++;
    load.inFlight++;
    load.maxInFlight = Math.max(load.maxInFlight, load.inFlight);
    let done = false;
    const finished = () => {
      if (!done) load.inFlight--;
      done = true;
    };
    res.once('close', finished);
    if (options.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) GZIPPED.set(res, () => load.gzipped++);
    handle(state, req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      if (status === 500) state.log?.error({ err }, 'model server request failed');
      const wire: Wire = (req.url ?? '').includes('/messages') ? 'anthropic' : 'openai';
      if (!res.headersSent) fail(res, wire, status, (err as Error).message);
      else res.destroy();
    });
  };
}

/** Starts the local model server: OpenAI Chat Completions and Responses, and Anthropic Messages, answered by policies. */
export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  const seed = options.seed ?? 0;
  const defaultFaults = parseFaults(options.faults, 'model server faults');
  const log = options.logger;
  const sessions = new Map<string, Session>();
  const responses = new ResponsesSessions();
  const waits = slowAnswers();
  let opened = 0;
  const load = { requests: 0, inFlight: 0, maxInFlight: 0, gzipped: 0 };
  let closing: Promise<void> | undefined;

  const prefix = (options.pathPrefix ?? '').replace(/\/+$/, '');
  if (prefix && !/^\/[\w./-]*$/.test(prefix)) throw new Error(`model server pathPrefix ${prefix} must be a path starting with /`);
  let url = '';
  const batches = new BatchDesk({ sessions, url: () => url, delayMs: options.batchDelayMs ?? 0 });
  const state: ServerState = { seed, sessions, responses, log, delay: waits.delay, closing: () => closing !== undefined, prefix, batches };

  const server = createServer(serveCounted(state, load, options));
  server.keepAliveTimeout = 5_000;

  url = `${await listen(server, options)}${state.prefix}`;
  log?.debug({ url }, 'model server listening');

  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    anthropicBaseUrl: url,
    openSession(policy, context, sessionOptions = {}) {
      if (closing) throw new Error('the model server is closed');
      const token = `ibs-${randomBytes(18).toString('base64url')}`;
      const key = sessionOptions.key ?? `s${opened}`;
      opened++;
      const faults = sessionOptions.faults ? parseFaults(sessionOptions.faults, `session ${key} faults`) : defaultFaults;
      sessions.set(token, {
        policy,
        context,
        faults,
        cache: newPromptCache(),
        stats: { key, requests: 0, answered: 0, reasoningCarried: 0, faults: [] },
      });
      return token;
    },
    closeSession(token) {
      sessions.delete(token);
    },
    stats() {
      return { ...load };
    },
    batchStats(token) {
      return batches.stats(token);
    },
    sessionStats(token) {
      const s = sessions.get(token)?.stats;
      return s && { ...s, faults: [...s.faults], ...(s.cli ? { cli: { ...s.cli } } : {}) };
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        waits.clear();
        batches.close();
        sessions.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
