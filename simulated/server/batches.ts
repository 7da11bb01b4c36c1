import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { anthropicError, MessagesRequestSchema } from './anthropic-wire.js';
import type { ResolvedFaultConfig } from './faults.js';
import { HttpError, readJsonBody, sendJson, sessionToken } from './http.js';
import { openaiError } from './openai-wire.js';

/**
 * The providers' batch APIs, as the local server emulates them: OpenAI's Batch API (a JSONL file uploaded to
 * `/v1/files`, a batch made of it at `/v1/batches`, its output and error files read back) and Anthropic's Message
 * Batches (`/v1/messages/batches`, results as JSONL at the batch's `results_url`). Each request of a batch is answered by
 * sending it to the server's own synchronous route with the batch's session token, so it gets exactly the answer (and
 * faults) it would get alone. A batch waits `delayMs` before it is processed, one request after another in the order
 * given; a session's `batchExpire` fault makes its first batches expire with only the first half answered.
 */

type Kind = 'openai' | 'anthropic';

/** One request of a batch and, once processed, what came back. */
interface Item {
  customId: string;
  body: unknown;
  answer?: { status: number; body: unknown } | 'expired';
}

interface Batch {
  id: string;
  kind: Kind;
  token: string;
  items: Item[];
  createdAt: number;
  state: 'in_progress' | 'ended' | 'expired' | 'failed';
  /** The synchronous route its requests are answered at. */
  endpoint: string;
  /** OpenAI: the uploaded file the batch was made of, and why it failed validation. */
  inputFileId?: string;
  failure?: string;
  outputFileId?: string;
  errorFileId?: string;
  endedAt?: number;
}

/** What the batches read of the running server. */
export interface BatchDeskOptions {
  sessions: Map<string, { faults: ResolvedFaultConfig }>;
  /** The server's own URL (with its path prefix), which each request is answered at. */
  url: () => string;
  /** How long a batch waits before it is processed. */
  delayMs: number;
}

const OpenAIBatchLine = z.strictObject({
  custom_id: z.string().min(1).max(64),
  method: z.literal('POST'),
  url: z.string(),
  body: z.record(z.string(), z.unknown()),
});

const OpenAIBatchCreate = z.looseObject({
  input_file_id: z.string(),
  endpoint: z.enum(['/v1/chat/completions', '/v1/responses']),
  completion_window: z.literal('24h'),
});

const AnthropicBatchCreate = z.looseObject({
  requests: z.array(z.looseObject({ custom_id: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/), params: MessagesRequestSchema })).min(1),
});

const seconds = (ms: number) => Math.floor(ms / 1000);

/** What a session's batches have seen: how many were made, for the `batchExpire` fault. */
export interface BatchStats {
  created: number;
  /** Requests of all its batches, as given. */
  requests: number;
}

export class BatchDesk {
  private readonly batches = new Map<string, Batch>();
  private readonly files = new Map<string, { name: string; text: string; createdAt: number }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly perSession = new Map<string, BatchStats>();
  private closed = false;

  constructor(private readonly options: BatchDeskOptions) {}

  /** Serves a batch or file route; false when the path is none of them. */
  async route(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    const m = /^\/v1\/(files|batches|messages\/batches)(?:\/([^/]+))?(?:\/(content|results))?$/.exec(path);
    if (!m) return false;
    const [, what, id, sub] = m as unknown as [string, string, string | undefined, string | undefined];
    const kind: Kind = what === 'messages/batches' ? 'anthropic' : 'openai';
    const token = sessionToken(req);
    const session = token ? this.options.sessions.get(token) : undefined;
    const fail = (status: number, message: string) => {
      sendJson(res, status, kind === 'anthropic' ? anthropicError(status, message) : openaiError(status, message));
      return true;
    };
    if (!token || !session) return fail(401, 'unknown or closed session token');
    const method = req.method ?? 'GET';
    if (what === 'files' && !id && method === 'POST') {
      await this.upload(req, res);
      return true;
    }
    if (what === 'files' && id && sub === 'content' && method === 'GET') {
      const file = this.files.get(id);
      if (!file) return fail(404, `no file ${id}`);
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(file.text);
      return true;
    }
    if (what !== 'files' && !id && method === 'POST') {
      const body = await readJsonBody(req);
      const batch = kind === 'openai' ? this.createOpenAI(body, token) : this.createAnthropic(body, token);
      this.schedule(batch, session);
      sendJson(res, 200, kind === 'openai' ? this.openaiView(batch) : this.anthropicView(batch));
      return true;
    }
    const batch = id ? this.batches.get(id) : undefined;
    if (!batch || batch.kind !== kind || batch.token !== token) return fail(404, `no batch ${id ?? ''}`);
    if (method === 'GET' && !sub) {
      sendJson(res, 200, kind === 'openai' ? this.openaiView(batch) : this.anthropicView(batch));
      return true;
    }
    if (method === 'GET' && sub === 'results' && kind === 'anthropic') {
      if (batch.state === 'in_progress') return fail(400, `batch ${batch.id} is still in progress`);
      res.writeHead(200, { 'content-type': 'application/binary' });
      res.end(batch.items.map((item) => `${JSON.stringify({ custom_id: item.customId, result: anthropicResult(item) })}\n`).join(''));
      return true;
    }
    return fail(404, `no route for ${method} ${path}`);
  }

  /** How many batches (and requests in them) a session made. */
  stats(token: string): BatchStats {
    return { ...(this.perSession.get(token) ?? { created: 0, requests: 0 }) };
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private async upload(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const type = req.headers['content-type'] ?? '';
    if (!type.startsWith('multipart/form-data')) throw new HttpError(400, 'a file is uploaded as multipart/form-data');
    const form = await new Request('http://local/upload', {
      method: 'POST',
      headers: { 'content-type': type },
      body: Readable.toWeb(req) as ReadableStream,
      duplex: 'half',
    } as RequestInit).formData();
    const file = form.get('file');
    if (form.get('purpose') !== 'batch' || !(file instanceof Blob)) throw new HttpError(400, "upload a file with purpose 'batch'");
    const id = `file-${randomBytes(12).toString('hex')}`;
    const text = await file.text();
    const name = (file as File).name ?? 'upload.jsonl';
    const createdAt = Date.now();
    this.files.set(id, { name, text, createdAt });
    sendJson(res, 200, fileView(id, name, text, createdAt, 'batch'));
  }

  private createOpenAI(body: unknown, token: string): Batch {
    const parsed = OpenAIBatchCreate.safeParse(body);
    if (!parsed.success) throw new HttpError(400, describe(parsed.error));
    const file = this.files.get(parsed.data.input_file_id);
    if (!file) throw new HttpError(400, `no file ${parsed.data.input_file_id}`);
    const batch = this.newBatch('openai', token, `batch_${randomBytes(12).toString('hex')}`, parsed.data.endpoint);
    batch.inputFileId = parsed.data.input_file_id;
    file.text.split('\n').forEach((line, i) => {
      if (!line.trim() || batch.failure) return;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        batch.failure = `line ${i + 1}: not JSON`;
        return;
      }
      const item = OpenAIBatchLine.safeParse(raw);
      if (!item.success) batch.failure = `line ${i + 1}: ${describe(item.error)}`;
      else if (item.data.url !== parsed.data.endpoint) batch.failure = `line ${i + 1}: url ${item.data.url} is not the batch's endpoint`;
      else batch.items.push({ customId: item.data.custom_id, body: item.data.body });
    });
    if (!batch.failure && batch.items.length === 0) batch.failure = 'the file holds no request';
    if (batch.failure) batch.state = 'failed';
    return batch;
  }

  private createAnthropic(body: unknown, token: string): Batch {
    const parsed = AnthropicBatchCreate.safeParse(body);
    if (!parsed.success) throw new HttpError(400, describe(parsed.error));
    const batch = this.newBatch('anthropic', token, `msgbatch_${randomBytes(12).toString('hex')}`, '/v1/messages');
    batch.items = parsed.data.requests.map((r) => ({ customId: r.custom_id, body: r.params }));
    return batch;
  }

  private newBatch(kind: Kind, token: string, id: string, endpoint: string): Batch {
    const batch: Batch = { id, kind, token, endpoint, items: [], createdAt: Date.now(), state: 'in_progress' };
    this.batches.set(id, batch);
    return batch;
  }

  /** Processes a batch after the delay: each request through the synchronous route, until the batch ends or expires. */
  private schedule(batch: Batch, session: { faults: ResolvedFaultConfig }): void {
    const stats = this.perSession.get(batch.token) ?? { created: 0, requests: 0 };
    stats.created++;
    stats.requests += batch.items.length;
    this.perSession.set(batch.token, stats);
    if (batch.state !== 'in_progress') return;
    const expires = stats.created <= session.faults.batchExpire;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.process(batch, expires).catch(() => {
        batch.state = 'failed';
        batch.failure = 'the server failed while processing the batch';
      });
    }, this.options.delayMs);
    this.timers.add(timer);
  }

  private async process(batch: Batch, expires: boolean): Promise<void> {
    const answered = expires ? Math.floor(batch.items.length / 2) : batch.items.length;
    for (const [i, item] of batch.items.entries()) {
      if (this.closed) return;
      if (i >= answered) {
        item.answer = 'expired';
        continue;
      }
      const res = await fetch(`${this.options.url()}${batch.endpoint}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${batch.token}` },
        body: JSON.stringify({ ...(item.body as object), stream: false }),
      });
      const text = await res.text();
      item.answer = { status: res.status, body: parseOrText(text) };
    }
    batch.endedAt = Date.now();
    batch.state = expires ? 'expired' : 'ended';
    if (batch.kind === 'openai') this.writeOpenAIFiles(batch);
  }

  /** OpenAI's output file (the 200s) and error file (the rest, expired requests included). */
  private writeOpenAIFiles(batch: Batch): void {
    const ok: string[] = [];
    const bad: string[] = [];
    for (const item of batch.items) {
      const a = item.answer;
      const line = { id: `batch_req_${randomBytes(8).toString('hex')}`, custom_id: item.customId };
      if (a === 'expired' || a === undefined) {
        bad.push(
          JSON.stringify({
            ...line,
            response: null,
            error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' },
          }),
        );
      } else if (a.status === 200)
        ok.push(JSON.stringify({ ...line, response: { status_code: 200, request_id: line.id, body: a.body }, error: null }));
      else bad.push(JSON.stringify({ ...line, response: { status_code: a.status, request_id: line.id, body: a.body }, error: null }));
    }
    const file = (lines: string[], name: string) => {
      if (lines.length === 0) return undefined;
      const id = `file-${randomBytes(12).toString('hex')}`;
      this.files.set(id, { name, text: `${lines.join('\n')}\n`, createdAt: Date.now() });
      return id;
    };
    batch.outputFileId = file(ok, 'batch_output.jsonl');
    batch.errorFileId = file(bad, 'batch_errors.jsonl');
  }

  private openaiView(b: Batch) {
    const done = b.items.filter((i) => i.answer !== undefined);
    const failed = done.filter((i) => i.answer === 'expired' || (i.answer as { status: number }).status !== 200).length;
    const status = b.state === 'ended' ? 'completed' : b.state;
    return {
      id: b.id,
      object: 'batch',
      endpoint: b.endpoint,
      errors: b.failure ? { object: 'list', data: [{ code: 'invalid_request', message: b.failure, line: null, param: null }] } : null,
      input_file_id: b.inputFileId ?? '',
      completion_window: '24h',
      status,
      output_file_id: b.outputFileId ?? null,
      error_file_id: b.errorFileId ?? null,
      created_at: seconds(b.createdAt),
      in_progress_at: seconds(b.createdAt),
      expires_at: seconds(b.createdAt) + 86_400,
      completed_at: b.state === 'ended' ? seconds(b.endedAt!) : null,
      expired_at: b.state === 'expired' ? seconds(b.endedAt!) : null,
      failed_at: b.state === 'failed' ? seconds(b.createdAt) : null,
      request_counts: { total: b.items.length, completed: done.length - failed, failed },
      metadata: null,
    };
  }

  private anthropicView(b: Batch) {
    const counts = { processing: 0, succeeded: 0, errored: 0, canceled: 0, expired: 0 };
    for (const item of b.items) {
      if (item.answer === undefined) counts.processing++;
      else counts[anthropicResult(item).type]++;
    }
    const ended = b.state !== 'in_progress';
    return {
      id: b.id,
      type: 'message_batch',
      processing_status: ended ? 'ended' : 'in_progress',
      request_counts: counts,
      created_at: new Date(b.createdAt).toISOString(),
      expires_at: new Date(b.createdAt + 86_400_000).toISOString(),
      ended_at: ended ? new Date(b.endedAt ?? b.createdAt).toISOString() : null,
      archived_at: null,
      cancel_initiated_at: null,
      results_url: ended ? `${this.options.url()}/v1/messages/batches/${b.id}/results` : null,
    };
  }
}

/** A processed request as Anthropic reports it in a batch's results. */
function anthropicResult(item: Item): { type: 'succeeded' | 'errored' | 'expired' | 'canceled'; [k: string]: unknown } {
  const a = item.answer;
  if (a === undefined || a === 'expired') return { type: 'expired' };
  if (a.status === 200) return { type: 'succeeded', message: a.body };
  return { type: 'errored', error: a.body };
}

function fileView(id: string, filename: string, text: string, createdAt: number, purpose: string) {
  return {
    id,
    object: 'file',
    bytes: Buffer.byteLength(text),
    created_at: seconds(createdAt),
    filename,
    purpose,
    status: 'processed',
    expires_at: null,
  };
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { error: { message: text.slice(0, 500) } };
  }
}

function describe(err: z.ZodError): string {
  const issue = err.issues[0];
  return `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid request'}`;
}
