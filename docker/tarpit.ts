import type Docker from 'dockerode';
import { readShipped } from '../core/shipped.js';
import { forceRemove } from './cleanup.js';
import { withEngineDeadline } from './deadline.js';
import { SandboxError, engineMessage } from './errors.js';
import { PYTHON_IMAGE } from './image-names.js';
import { RUN_LABEL, SAMPLE_LABEL } from './labels.js';

const TARPIT_ROUTE_PY = readShipped(import.meta.url, 'tarpit-route.py');

/**
 * Makes connections from a sandbox to each address hang rather than fail at once, as they do on the internet where the
 * address drops packets (requests' connect-timeout tests need 10.255.255.1 to). The sandbox keeps no network: each
 * address is routed into its loopback interface, by a short-lived container that joins its network namespace with
 * NET_ADMIN alone, runs the project's own script and is gone before the agent starts. Nobody in the sandbox can change
 * the route after, holding no NET_ADMIN.
 */
export async function addTarpits(
  docker: Docker,
  sandbox: { id: string; image: string; runId: string; sampleId: string },
  addresses: readonly string[],
): Promise<void> {
  // The project's image has python3 for sure; a task image may not be the one it was built from.
  const present = await withEngineDeadline('inspect an image', () => docker.getImage(PYTHON_IMAGE).inspect()).then(
    () => true,
    () => false,
  );
  const helper = await withEngineDeadline('create a container', () =>
    docker.createContainer({
      Image: present ? PYTHON_IMAGE : sandbox.image,
      Entrypoint: ['python3', '-c', TARPIT_ROUTE_PY, ...addresses],
      Cmd: [],
      User: 'root',
      Labels: { [RUN_LABEL]: sandbox.runId, [SAMPLE_LABEL]: `${sandbox.sampleId}/tarpit` },
      HostConfig: {
        NetworkMode: `container:${sandbox.id}`,
        CapDrop: ['ALL'],
        CapAdd: ['NET_ADMIN'],
        SecurityOpt: ['no-new-privileges:true'],
        Privileged: false,
        Memory: 64 * 1024 ** 2,
        PidsLimit: 16,
      },
    }),
  );
  try {
    await withEngineDeadline('start a container', () => helper.start());
    const { StatusCode } = (await withEngineDeadline('wait for a container', () => helper.wait())) as { StatusCode: number };
    if (StatusCode !== 0) {
      const logs = demuxed(await helper.logs({ stdout: true, stderr: true })).trim();
      throw new SandboxError(`could not make ${addresses.join(', ')} drop packets in the sandbox (exit ${StatusCode}): ${logs.slice(-300)}`);
    }
  } catch (err) {
    if (err instanceof SandboxError) throw err;
    throw new SandboxError(`could not make ${addresses.join(', ')} drop packets in the sandbox: ${engineMessage(err)}`, { cause: err });
  } finally {
    await forceRemove(helper).catch(() => undefined);
  }
}

/** A container's log as the engine frames it (an 8-byte header, its size last, before each piece), as text. */
function demuxed(framed: Buffer): string {
  const pieces: Buffer[] = [];
  for (let at = 0; at + 8 <= framed.length; ) {
    const size = framed.readUInt32BE(at + 4);
    pieces.push(framed.subarray(at + 8, at + 8 + size));
    at += 8 + size;
  }
  return Buffer.concat(pieces).toString('utf8');
}
