import type { ExecOptions, FileToWrite, Sandbox } from './types.js';

/**
 * A sandbox still being created, usable at once: each call waits for it. The runner hands this to the agent loop so
 * that the container starts while the first model request is in flight. `ready` settles with the sandbox, or
 * undefined when creating it failed (the calls then fail with that error).
 */
export function deferredSandbox(creating: Promise<Sandbox>): Sandbox & { ready: Promise<Sandbox | undefined> } {
  let created: Sandbox | undefined;
  const ready = creating.then(
    (s) => (created = s),
    () => undefined,
  );
  return {
    get id() {
      return created?.id ?? '';
    },
    ready,
    exec: async (command: string[] | string, options?: ExecOptions) => (await creating).exec(command, options),
    writeFiles: async (files: FileToWrite[]) => (await creating).writeFiles(files),
    readFile: async (path: string) => (await creating).readFile(path),
    readDir: async (path: string) => (await creating).readDir(path),
    changes: async () => (await creating).changes(),
    imageId: async () => (await creating).imageId?.(),
    diskUsage: async () => (await creating).diskUsage(),
    forwardPort: async (port, connect) => {
      const sandbox = await creating;
      if (!sandbox.forwardPort) throw new Error(`this sandbox cannot open port ${port}: its backend forwards no ports`);
      await sandbox.forwardPort(port, connect);
    },
    destroy: async () => (await ready)?.destroy(),
    engineLost: async () => (await ready)?.engineLost?.(),
  };
}
