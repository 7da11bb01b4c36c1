import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** The provider's answer: its status, its headers (names lowercase) and its body, decoded. */
export interface UpstreamReply {
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<Buffer>;
}

/** The body as the provider meant it, whatever encoding it was sent in (gzip, deflate, br, or none). */
function decoded(reply: IncomingMessage): Readable {
  const encoding = String(reply.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' ? createGunzip() : encoding === 'deflate' ? createInflate() : encoding === 'br' ? createBrotliDecompress() : undefined;
  if (!decoder) return reply;
  reply.on('error', (e) => decoder.destroy(e));
  return reply.pipe(decoder);
}

/**
 * One POST to the provider. Plain `node:http(s)` rather than fetch: fetch gives up on an answer whose headers take
 * over five minutes, or whose stream is silent that long, which a long reasoning turn can be. Here only the sample's
 * deadline (`signal`) ends a request; the program's own client keeps its own timeouts.
 */
export function postUpstream(url: URL, headers: Record<string, string>, body: Uint8Array, signal?: AbortSignal): Promise<UpstreamReply> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const all = { ...headers, 'accept-encoding': 'gzip, deflate, br', 'content-length': String(body.byteLength) };
  return new Promise((resolve, reject) => {
    const req = send(url, { method: 'POST', headers: all, ...(signal ? { signal } : {}) }, (reply) => {
      const flat: Record<string, string> = {};
      for (const [name, value] of Object.entries(reply.headers))
        if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
      resolve({ status: reply.statusCode ?? 502, headers: flat, body: decoded(reply) });
    });
    req.on('error', reject);
    req.end(body);
  });
}
