import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { UserError } from '../../core/errors.js';
import { type AgentCliSpec, BUILTIN_AGENT_CLIS, type BuiltinLocation, isBuiltinAgentCli } from './spec.js';

/**
 * Finds an agent program's binary where a user installed it; the project never downloads one. A built-in one: the
 * variable that names it (`IMPOSSIBLEBENCH_CODEX_BIN`), else the native binary inside its global npm package (found
 * from `npm root -g`, or from the command on PATH). One a config describes: its `binary`, a path or a command on PATH.
 */

export type BinaryLookup = { found: true; path: string; via: string } | { found: false; why: string; install: string };

/** Where the lookup reads: this process's environment and CPU by default; tests give their own. */
export interface LookupContext {
  env?: Record<string, string | undefined>;
  arch?: string;
  /** The global npm folder; by default asked of npm itself (once). */
  npmRoot?: string | null;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A native executable (not a JavaScript launcher, nor a placeholder an unfinished install left). */
function isElf(path: string): boolean {
  if (!isFile(path)) return false;
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(4);
    readSync(fd, head, 0, 4, 0);
    return head.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
  } finally {
    closeSync(fd);
  }
}

let npmRootCache: string | null | undefined;

function globalNpmRoot(): string | null {
  if (npmRootCache !== undefined) return npmRootCache;
  try {
    npmRootCache = execFileSync('npm', ['root', '-g'], { encoding: 'utf8', timeout: 15_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    npmRootCache = null;
  }
  return npmRootCache;
}

/** The first file of that name in PATH's folders, links followed. */
function onPath(command: string, env: Record<string, string | undefined>): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    if (isFile(candidate)) return realpathSync(candidate);
  }
  return undefined;
}

/** The package folder a file of an npm package lies in: the nearest parent whose path ends with the package's name. */
function packageDirOf(file: string, npmPackage: string): string | undefined {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    if (dir.endsWith(`/${npmPackage}`)) return dir;
  }
  return undefined;
}

function nativeIn(pkg: string, location: BuiltinLocation, arch: string): string | undefined {
  return location.native(pkg, dirname(pkg), arch).find(isElf);
}

function findBuiltin(name: 'codex' | 'claude-code', ctx: LookupContext): BinaryLookup {
  const { spec, location } = BUILTIN_AGENT_CLIS[name];
  const env = ctx.env ?? process.env;
  const install = spec.install!;
  const named = env[location.envVar];
  if (named) {
    if (isElf(named)) return { found: true, path: realpathSync(named), via: location.envVar };
    return { found: false, why: `${location.envVar}=${named} is not an executable binary`, install };
  }
  const arch = ctx.arch ?? process.arch;
  const root = ctx.npmRoot === undefined ? globalNpmRoot() : ctx.npmRoot;
  const fromRoot = root ? nativeIn(join(root, location.npmPackage), location, arch) : undefined;
  if (fromRoot) return { found: true, path: fromRoot, via: 'npm root -g' };
  const launcher = onPath(location.command, env);
  const pkg = launcher && packageDirOf(launcher, location.npmPackage);
  const fromPath = pkg ? nativeIn(pkg, location, arch) : undefined;
  if (fromPath) return { found: true, path: fromPath, via: `${location.command} on PATH` };
  return { found: false, why: `${location.npmPackage} is not installed globally (nor named by ${location.envVar})`, install };
}

function findConfigured(spec: AgentCliSpec, ctx: LookupContext): BinaryLookup {
  const install = spec.install ?? `install ${spec.binary} on this machine`;
  const path = isAbsolute(spec.binary) ? (isFile(spec.binary) ? realpathSync(spec.binary) : undefined) : onPath(spec.binary, ctx.env ?? process.env);
  if (path) return { found: true, path, via: isAbsolute(spec.binary) ? 'its path' : 'PATH' };
  return { found: false, why: `${spec.binary} ${isAbsolute(spec.binary) ? 'does not exist' : 'is not on PATH'}`, install };
}

/** Where an agent program's binary is on this machine, or why it is not there and the command that installs it. */
export function findAgentBinary(spec: AgentCliSpec, ctx: LookupContext = {}): BinaryLookup {
  return isBuiltinAgentCli(spec.name) ? findBuiltin(spec.name, ctx) : findConfigured(spec, ctx);
}

/** The binary's path, or a one-line error naming the command that installs it. */
export function requireAgentBinary(spec: AgentCliSpec, ctx: LookupContext = {}): string {
  const found = findAgentBinary(spec, ctx);
  if (found.found) return found.path;
  throw new UserError(`scaffold ${spec.name} needs its agent program, which is missing (${found.why}): ${found.install}`, found.install);
}
