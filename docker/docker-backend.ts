import { statfs } from 'node:fs/promises';
import { type BuildOptions, ensurePythonImage } from './build/python.js';
import { listSandboxContainers, removeContainers, removeSandboxContainers } from './cleanup.js';
import { deriveImage, listDerivedImages, removeDerivedImages } from './derived-images.js';
import { connectEngine, type EngineEndpoint, findEngine, getDocker, noEngineError, withEngine } from './engine.js';
import { imageStatus, listImages, missingImages } from './images.js';
import { pullImage } from './pull.js';
import { createSandbox, destroyAllSandboxes } from './sandbox.js';
import type { BackendCheck, SandboxBackend } from './types.js';

/**
 * The Docker (or Podman, through its Docker API) backend: one container per sandbox, found by its labels. On the
 * engine found as usual, or on `endpoint` (one engine of a pool): every call is then made there. A sandbox keeps the
 * engine it was created on.
 */
export function dockerBackend(endpoint?: EngineEndpoint): SandboxBackend {
  const on =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R =>
      endpoint ? withEngine(endpoint, () => fn(...args)) : fn(...args);
  return {
    name: 'docker',
    create: on(createSandbox),
    list: on((filter = {}) => listSandboxContainers(filter.runId, undefined, filter.diskUsage)),
    remove: on((sandboxes) => removeContainers(sandboxes)),
    cleanup: on((filter = {}) => removeSandboxContainers(filter)),
    connect: on(async () => {
      await connectEngine();
    }),
    probe: on(probeDocker),
    destroyAll: destroyAllSandboxes,
    images: {
      status: on((name: string, recipe?: string) => imageStatus(name, recipe)),
      missing: on((names: Iterable<string>) => missingImages(names)),
      pull: on((name: string, options: Parameters<typeof pullImage>[1] = {}) => pullImage(name, options)),
      build: on((options?: BuildOptions) => ensurePythonImage(options)),
      list: on((references: string[]) => listImages(references)),
      freeSpace: on(engineFreeBytes),
      derive: on(deriveImage),
      listDerived: on(listDerivedImages),
      removeDerived: on(removeDerivedImages),
    },
  };
}

/** The engine: reachable, Linux containers, and able to enforce the sandbox's limits. */
async function probeDocker(): Promise<BackendCheck[]> {
  const { found, tried } = await findEngine();
  if (!found) {
    const err = noEngineError(tried);
    const details =
      tried[0]?.endpoint.kind === 'DOCKER_HOST' || tried[0]?.endpoint.kind === 'host'
        ? []
        : tried.filter((t) => t.error !== 'no socket there').map((t) => `tried ${t.endpoint.label}: ${t.error}`);
    return [{ mark: 'fail', text: `container engine: ${err.message}`, ...(err.fix ? { fix: err.fix } : {}), details }];
  }
  const checks: BackendCheck[] = [
    { mark: 'ok', text: `container engine: ${found.product} ${found.version} (API ${found.apiVersion}) at ${found.endpoint.label}` },
  ];
  const { docker } = await connectEngine();
  const info = (await docker.info()) as { MemoryLimit?: boolean; SwapLimit?: boolean; PidsLimit?: boolean; CgroupVersion?: string; OSType?: string };
  const limits: string[] = [];
  if (info.MemoryLimit === false) limits.push('memory');
  if (info.PidsLimit === false) limits.push('pids');
  if (limits.length > 0) {
    checks.push({
      mark: 'fail',
      text: `the engine cannot enforce ${limits.join(' and ')} limits`,
      fix: 'enable the memory and pids cgroup controllers (cgroup v2, or cgroup_enable=memory on the kernel command line)',
    });
  } else {
    checks.push({
      mark: 'ok',
      text: `sandbox limits: memory, cpu and pids (cgroup v${info.CgroupVersion ?? '?'})${info.SwapLimit === false ? '; no swap accounting' : ''}`,
    });
  }
  if (info.OSType && info.OSType !== 'linux') {
    checks.push({
      mark: 'fail',
      text: `the engine runs ${info.OSType} containers; sandboxes need Linux containers`,
      fix: 'switch the engine to Linux containers',
    });
  }
  return checks;
}

/** Free bytes where the engine keeps its images, when that folder is on this machine. */
async function engineFreeBytes(): Promise<{ path: string; bytes: number } | undefined> {
  const docker = await getDocker();
  const info = (await docker.info().catch(() => undefined)) as { DockerRootDir?: string } | undefined;
  const path = info?.DockerRootDir;
  if (!path) return undefined;
  try {
    const fs = await statfs(path);
    return { path, bytes: fs.bavail * fs.bsize };
  } catch {
    // The engine runs elsewhere (a VM, a remote host).
    return undefined;
  }
}
