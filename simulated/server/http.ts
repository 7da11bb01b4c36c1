import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

/** Requests larger than this are refused: a transcript that big is a bug, not a conversation. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `request body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(buf);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'request body is not valid JSON');
  }
}

/** Answers a server started with `gzip` compresses (JSON bodies, when the client accepts gzip), each with its count. */
export const GZIPPED = new WeakMap<ServerResponse, () => void>();

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const text = Buffer.from(JSON.stringify(body));
  const counted = GZIPPED.get(res);
  counted?.();
  const gzip = counted !== undefined;
  const sent = gzip ? gzipSync(text) : text;
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': sent.length,
    ...(gzip ? { 'content-encoding': 'gzip', vary: 'Accept-Encoding' } : {}),
    ...headers,
  });
  res.end(sent);
}

/** Starts a server-sent-events response; returns a writer of `event`/`data` frames. */
export function startSse(res: ServerResponse): { send(data: unknown, event?: string): void; raw(line: string): void; end(): void } {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  return {
    send(data, event) {
      if (res.destroyed) return;
      res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
    },
    raw(line) {
      if (!res.destroyed) res.write(line);
    },
    end() {
      if (!res.destroyed) res.end();
    },
  };
}

/** The session token from `Authorization: Bearer T` (OpenAI SDK, newer Anthropic SDKs) or `x-api-key: T`. */
export function sessionToken(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && auth.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim();
  const key = req.headers['x-api-key'];
  return typeof key === 'string' ? key.trim() : undefined;
}
