import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSpecifiers, repoSources } from '../core/testing/sources.js';

/**
 * The sandbox contract's boundary: code outside docker/ reaches sandboxes only through the contract (types.ts and the
 * backend registry), so a second backend needs no change elsewhere. No file outside docker/ may import the engine's
 * client (dockerode) or any docker/ module but those listed here.
 */

/** The docker/ modules that are contract or backend-neutral, by path without extension. */
const OPEN = new Set([
  'docker/types', // the contract
  'docker/backends', // choosing a backend by name
  'docker/limits-defaults', // the limits a sandbox gets unless told otherwise
  'docker/hosts', // the engines of a pool as flags and the config give them (addresses and capacities, no client)
  'docker/image-names', // image names and recipes (OCI names, whichever backend runs them)
  'docker/registry', // layer sizes from a registry's HTTP API, not the engine
  'docker/errors', // which sandbox failures are permanent
  'docker/deferred', // a sandbox made on first use, over any backend
  'docker/floor', // bare lifecycles on a given backend
  'docker/user-cleanup', // shell functions run inside any sandbox
  'docker/build/progress', // progress lines of an image build
  'docker/testing', // test helpers; its engine-only operations stay behind it
  'docker/testing/memory-backend', // in-process sandboxes for tests of what drives sandboxes
  'docker/testing/registry', // a local registry for tests
  'docker/testing/second-engine', // a second engine for tests of engine pools
]);

/** What a file outside docker/ imports that it may not, as `specifier` strings. */
function forbiddenImports(path: string, source: string): string[] {
  const from = posix.dirname(path);
  return importSpecifiers(source).filter((spec) => {
    if (spec === 'dockerode' || spec.startsWith('dockerode/')) return true;
    if (!spec.startsWith('.')) return false;
    const target = posix.normalize(posix.join(from, spec)).replace(/\.(js|ts)$/, '');
    return target.startsWith('docker/') && !OPEN.has(target);
  });
}

describe('the sandbox contract boundary', () => {
  it('no file outside docker/ imports dockerode or a Docker-only docker/ module', () => {
    const offenders: string[] = [];
    for (const { path, text } of repoSources()) {
      if (path.startsWith('docker/')) continue;
      for (const spec of forbiddenImports(path, text)) offenders.push(`${path} imports ${spec}`);
    }
    expect(offenders, 'reach sandboxes through docker/types.ts and docker/backends.ts (engine-only test needs: docker/testing.ts)').toEqual([]);
  });

  it('catches each way of naming the engine', () => {
    const file = 'runner/x.ts';
    expect(forbiddenImports(file, "import Docker from 'dockerode';")).toEqual(['dockerode']);
    expect(forbiddenImports(file, "import type { DockerOptions } from 'dockerode';")).toEqual(['dockerode']);
    expect(forbiddenImports(file, "const { getDocker } = await import('../docker/engine.js');")).toEqual(['../docker/engine.js']);
    expect(forbiddenImports(file, "import { createSandbox } from '../docker/sandbox.js';")).toEqual(['../docker/sandbox.js']);
    expect(
      forbiddenImports(file, "import { sandboxBackend } from '../docker/backends.js';\nimport type { Sandbox } from '../docker/types.js';"),
    ).toEqual([]);
  });
});
