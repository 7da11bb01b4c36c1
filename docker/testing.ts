import { randomBytes } from 'node:crypto';
import { splitName } from './derived-images.js';
import { getDocker } from './engine.js';
import { PYTHON_IMAGE } from './images.js';
import { createSandbox } from './sandbox.js';
import { COMMAND_SERVER_MARK } from './channel-server.js';
import type { Sandbox, SandboxOptions } from './types.js';

/** A run id unique to one test file, so parallel test files never touch each other's containers. */
export function testRunId(name: string): string {
  return `test-${name}-${randomBytes(4).toString('hex')}`;
}

/** Creates a sandbox on the real engine from the Python image and always destroys it. */
export async function withSandbox<T>(runId: string, fn: (sandbox: Sandbox) => Promise<T>, options: Partial<SandboxOptions> = {}): Promise<T> {
  const sandbox = await createSandbox({ image: PYTHON_IMAGE, runId, sampleId: options.sampleId ?? 'sample', ...options });
  try {
    return await fn(sandbox);
  } finally {
    await sandbox.destroy();
  }
}

/** Every process in the container but the listing itself: "pid command line" per line. */
export const LIST_PROCESSES = `for p in /proc/[0-9]*; do
  pid=\${p#/proc/}
  { [ "$pid" = "$$" ] || [ "$pid" = "$PPID" ]; } && continue
  cmd=$(tr '\\0\\n' '  ' <"$p/cmdline" 2>/dev/null) || continue
  printf '%s %s\\n' "$pid" "$cmd"
done`;

/** Parses LIST_PROCESSES output, dropping PID 1 (init), the command server or keep-alive and the listing's own helpers. */
export function strayProcesses(listing: string): string[] {
  return listing
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .filter(
      (line) =>
        !line.startsWith('1 ') &&
        !/^\d+ sleep infinity$/.test(line) &&
        !line.includes(COMMAND_SERVER_MARK) &&
        !/^\d+ tr \\0/.test(line) &&
        !/^\d+$/.test(line),
    );
}

/*
 * Engine operations only tests need (the product never does them), here so that no test outside docker/ reaches the
 * engine's client.
 */

/** Saves a sandbox's filesystem as an image (`docker commit`), e.g. to stand for a prepared SWE-bench image. */
export async function commitSandbox(sandbox: Sandbox, image: string): Promise<void> {
  await (await getDocker()).getContainer(sandbox.id).commit(splitName(image));
}

/** Removes an image, if present. */
export async function removeImage(image: string): Promise<void> {
  await (await getDocker())
    .getImage(image)
    .remove({ force: true })
    .catch(() => undefined);
}

/** Removes a sandbox's container behind the sandbox's back, as a crash of the engine or a user's `docker rm -f` would. */
export async function removeBehindItsBack(sandbox: Sandbox): Promise<void> {
  await (await getDocker()).getContainer(sandbox.id).remove({ force: true });
}
