import type { Duplex } from 'node:stream';
import type { PoolEngine, PoolEngines } from './pool-engines.js';
import type { Sandbox } from './types.js';

/**
 * A sandbox on one engine of a pool, each call failing as EngineLostError once the engine is gone. `destroyed` is told
 * once, when the sandbox gives its slot back.
 */
export function onPoolEngine(engines: PoolEngines, e: PoolEngine, sandbox: Sandbox, destroyed: () => void): Sandbox {
  const guard = async <T>(call: () => Promise<T>): Promise<T> => {
    if (e.lost) throw engines.lostError(e);
    try {
      return await call();
    } catch (err) {
      if (await engines.gone(e)) throw engines.lostError(e);
      throw err;
    }
  };
  let released = false;
  return {
    id: sandbox.id,
    exec: (command, o) => guard(() => sandbox.exec(command, o)),
    writeFiles: (files) => guard(() => sandbox.writeFiles(files)),
    readFile: (path) => guard(() => sandbox.readFile(path)),
    readDir: (path) => guard(() => sandbox.readDir(path)),
    changes: () => guard(() => sandbox.changes()),
    imageId: () => guard(async () => sandbox.imageId?.()),
    diskUsage: () => guard(() => sandbox.diskUsage()),
    ...(sandbox.forwardPort ? { forwardPort: (port: number, connect: () => Duplex) => guard(() => sandbox.forwardPort!(port, connect)) } : {}),
    engineLost: async () => ((await engines.gone(e)) ? engines.lostError(e) : undefined),
    destroy: async () => {
      try {
        // A gone engine's containers are left for `cleanup`: waiting on it would hold the slot for nothing.
        if (!e.lost) await sandbox.destroy();
      } finally {
        if (!released) {
          released = true;
          destroyed();
          engines.release(e);
        }
      }
    },
  };
}
