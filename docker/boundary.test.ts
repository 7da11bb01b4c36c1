import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The sandbox contract's boundary: code outside docker/ reaches sandboxes only through the contract (types.ts and the
 * backend registry), so a second backend needs no change elsewhere. No file outside docker/ may import the engine's
 * client (dockerode) or any docker/ module but those listed here.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The docker/ modules that are contract or backend-neutral, by path without extension. */
const OPEN = new Set([
  'docker/types', // the contract
  'docker/backends', // choosing a backend by name
  'docker/hosts', // the engines of a pool as flags and the config give them (addresses and capacities, no client)
  'docker/image-names', // image names and recipes (OCI names, whichever backend runs them)
  'docker/registry', // layer sizes from a registry's HTTP API, not the engine
  'docker/errors', // which sandbox failures are permanent
  'docker/deferred', // a sandbox made on first use, over any backend
  'docker/floor', // bare lifecycles on a given backend
  'docker/user-cleanup', // shell functions run inside any sandbox
  'docker/build/progress', // progress lines of an image build
  'docker/testing', // test helpers; its engine-only operations stay behind it
  'docker/testing/registry', // a local registry for tests
  'docker/testing/second-engine', // a second engine for tests of engine pools
]);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Every module a TypeScript source names: static imports and exports, `import()`, and bare `import '…'`. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const re of [/\bfrom\s+['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, /^\s*import\s+['"]([^'"]+)['"]/gm]) {
    for (const m of source.matchAll(re)) found.push(m[1]!);
  }
  return found;
}

/** What a file outside docker/ imports that it may not, as `specifier` strings. */
function forbiddenImports(file: string, source: string): string[] {
  const from = posix.dirname(relative(ROOT, file).split(sep).join('/'));
  return specifiers(source).filter((spec) => {
    if (spec === 'dockerode' || spec.startsWith('dockerode/')) return true;
    if (!spec.startsWith('.')) return false;
    const target = posix.normalize(posix.join(from, spec)).replace(/\.(js|ts)$/, '');
    return target.startsWith('docker/') && !OPEN.has(target);
  });
}

describe('the sandbox contract boundary', () => {
  it('no file outside docker/ imports dockerode or a Docker-only docker/ module', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(ROOT)) {
      const path = relative(ROOT, file).split(sep).join('/');
      if (path.startsWith('docker/')) continue;
      for (const spec of forbiddenImports(file, readFileSync(file, 'utf8'))) offenders.push(`${path} imports ${spec}`);
    }
    expect(offenders, 'reach sandboxes through docker/types.ts and docker/backends.ts (engine-only test needs: docker/testing.ts)').toEqual([]);
  });

  it('catches each way of naming the engine', () => {
    const file = join(ROOT, 'runner', 'x.ts');
    expect(forbiddenImports(file, "import Docker from 'dockerode';")).toEqual(['dockerode']);
    expect(forbiddenImports(file, "import type { DockerOptions } from 'dockerode';")).toEqual(['dockerode']);
    expect(forbiddenImports(file, "const { getDocker } = await import('../docker/engine.js');")).toEqual(['../docker/engine.js']);
    expect(forbiddenImports(file, "import { createSandbox } from '../docker/sandbox.js';")).toEqual(['../docker/sandbox.js']);
    expect(
      forbiddenImports(file, "import { sandboxBackend } from '../docker/backends.js';\nimport type { Sandbox } from '../docker/types.js';"),
    ).toEqual([]);
  });
});
