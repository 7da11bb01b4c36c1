import { afterAll, beforeAll } from 'vitest';
import { startModelServer, type ModelServer, type ModelServerOptions } from '../server/index.js';

/**
 * The local model server for the tests of one file or describe block: started before its first test, closed after its
 * last. The server given back stands for the running one, so tests and helpers can name it at the top of the file and
 * use it in any hook or test that comes after this call.
 */
export function useModelServer(options: ModelServerOptions = {}): ModelServer {
  let running: ModelServer | undefined;
  beforeAll(async () => {
    running = await startModelServer(options);
  });
  afterAll(async () => {
    await running?.close();
  });
  const live = (): ModelServer => {
    if (!running) throw new Error('the model server starts in beforeAll: use it in a hook or a test, after useModelServer()');
    return running;
  };
  return {
    get url() {
      return live().url;
    },
    get openaiBaseUrl() {
      return live().openaiBaseUrl;
    },
    get anthropicBaseUrl() {
      return live().anthropicBaseUrl;
    },
    openSession: (policy, context, sessionOptions) => live().openSession(policy, context, sessionOptions),
    closeSession: (token) => live().closeSession(token),
    sessionStats: (token) => live().sessionStats(token),
    stats: () => live().stats(),
    batchStats: (token) => live().batchStats(token),
    close: () => live().close(),
  };
}

/** A server of the test's own (so no other test's traffic shows in its counts), closed however the test ends. */
export async function withModelServer<T>(fn: (server: ModelServer) => Promise<T>, options: ModelServerOptions = {}): Promise<T> {
  const server = await startModelServer(options);
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}
