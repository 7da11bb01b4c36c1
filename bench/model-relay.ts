import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelClient, ModelEndpoint } from '../core/model.js';

/**
 * A timing relay between an agent program's recording proxy and the model: each request is passed on unchanged and
 * the time until its answer has been read is added up, so a benchmark can take the model's time out of a sample's.
 */
export class ModelRelay {
  private waited = 0;
  private server: Server | undefined;
  private target: URL | undefined;

  /** The client as the program's scaffold sees it: every API it answers is reached through this relay. */
  async wrap(model: ModelClient): Promise<ModelClient> {
    const server = createServer((req, res) => {
      const started = performance.now();
      const target = this.target;
      if (!target) return void res.writeHead(502).end();
      const upstream = request(
        new URL(`${target.pathname.replace(/\/+$/, '')}${req.url ?? '/'}`, target.origin),
        { method: req.method, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('end', () => (this.waited += performance.now() - started));
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    const relayed = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const endpoint = (api: Parameters<NonNullable<ModelClient['endpoint']>>[0]): ModelEndpoint | undefined => {
      const real = model.endpoint?.(api);
      if (!real) return undefined;
      this.target = new URL(real.baseUrl);
      return { ...real, baseUrl: relayed };
    };
    return { name: model.name, endpoint, generate: (...args) => model.generate(...args), close: () => model.close?.() ?? Promise.resolve() };
  }

  waitedMs(): number {
    return this.waited;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
