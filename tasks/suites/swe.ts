import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import { z } from 'zod';
import { filesInPatch } from '../env/swe-specs.js';
import { builtinDir, cacheDir } from '../paths.js';
import type { SweTask } from '../task.js';

/**
 * The built-in SWE suite: small Python projects under tasks/builtin/swe/NAME/, each with
 * `task.json` (id, test ids), `issue.md`, `base/` (the tree at the buggy commit), `fix/` (files
 * as the gold patch leaves them) and `tests/` (test files as the test patch leaves them).
 * Each is built once into a git repository in the cache, with fixed names and dates so the
 * bytes and the commit hash are the same on every machine.
 */

const ProjectSchema = z.object({
  id: z.string().min(1),
  repo: z.string().min(1),
  createdAt: z.string(),
  version: z.string(),
  failToPass: z.array(z.string()).min(1),
  passToPass: z.array(z.string()),
});

/** Bump when the build changes in a way that changes its output. */
const BUILDER_VERSION = 1;
const AUTHOR = { name: 'Impossible Bench', email: 'builtin@impossiblebench.invalid' };

interface Built {
  baseCommit: string;
  patch: string;
  testPatch: string;
}

export function sweProjectsDir(): string {
  return builtinDir('swe');
}

/** Loads every built-in SWE task, building repositories that are not in the cache yet. */
export async function loadBuiltinSwe(options: { cacheDir?: string; say?: (line: string) => void } = {}): Promise<SweTask[]> {
  const dir = sweProjectsDir();
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const tasks: SweTask[] = [];
  for (const name of names) tasks.push(await buildSweProject(join(dir, name), cacheDir(options.cacheDir), options.say));
  return tasks;
}

/** Builds (or finds in the cache) one project's repository and returns its task. */
export async function buildSweProject(projectDir: string, cacheRoot: string, say?: (line: string) => void): Promise<SweTask> {
  const where = `${projectDir}${sep}task.json`;
  const parsed = ProjectSchema.safeParse(JSON.parse(await readFile(where, 'utf8')));
  if (!parsed.success) throw new Error(`${where}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const project = parsed.data;
  const issue = await readFile(join(projectDir, 'issue.md'), 'utf8');
  const hash = await hashTree(projectDir);
  const final = join(cacheRoot, 'builtin-swe', `${project.id}-${hash.slice(0, 16)}`);
  let built: Built;
  if (existsSync(join(final, 'built.json')) && existsSync(join(final, 'repo', '.git'))) {
    built = JSON.parse(await readFile(join(final, 'built.json'), 'utf8')) as Built;
  } else {
    // Nothing there, or a damaged folder (removed by hand, half-deleted): build it afresh.
    await rm(final, { recursive: true, force: true });
    say?.(`building the repository of builtin:swe ${project.id} in ${final}`);
    built = await buildInto(projectDir, final);
  }
  return {
    kind: 'swe',
    id: project.id,
    variant: 'original',
    source: 'builtin:swe',
    repo: project.repo,
    baseCommit: built.baseCommit,
    problemStatement: issue,
    hintsText: '',
    patch: built.patch,
    testPatch: built.testPatch,
    originalTestPatch: built.testPatch,
    failToPass: project.failToPass,
    passToPass: project.passToPass,
    version: project.version,
    createdAt: project.createdAt,
    repoSource: { type: 'git', path: join(final, 'repo') },
    testSpec: BUILTIN_TEST_SPEC,
  };
}

/** The built-in projects run pytest on the image's python, with short tracebacks the agent can act on. */
const BUILTIN_TEST_SPEC = {
  testCmd: 'python3 -m pytest --no-header -rA --tb=short -p no:cacheprovider',
  parser: 'pytest',
  origin: 'builtin:swe',
} as const;

/** Builds in a temporary folder beside the final one, then renames it into place. */
async function buildInto(projectDir: string, final: string): Promise<Built> {
  const tmp = `${final}.tmp-${randomBytes(4).toString('hex')}`;
  await mkdir(tmp, { recursive: true });
  try {
    const repo = join(tmp, 'repo');
    await mkdir(repo);
    const git = deterministicGit(repo);
    await git.raw(['init', '-q', '-b', 'main']);
    await copyTree(join(projectDir, 'base'), repo);
    await git.raw(['add', '-A']);
    await git.raw(['commit', '-q', '--no-verify', '-m', 'Initial version']);
    const baseCommit = (await git.raw(['rev-parse', 'HEAD'])).trim();
    const patch = await diffOf(git, join(projectDir, 'fix'), repo);
    const testPatch = await diffOf(git, join(projectDir, 'tests'), repo);
    checkProject(projectDir, patch, testPatch);
    const built: Built = { baseCommit, patch, testPatch };
    await writeFile(join(tmp, 'built.json'), JSON.stringify(built, null, 2));
    try {
      await rename(tmp, final);
    } catch (err) {
      // Another process built it first: theirs is byte-identical.
      if (!existsSync(join(final, 'built.json'))) throw err;
      await rm(tmp, { recursive: true, force: true });
    }
    return built;
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
}

function checkProject(projectDir: string, patch: string, testPatch: string): void {
  if (!patch.trim()) throw new Error(`${projectDir}: fix/ changes nothing`);
  if (!testPatch.trim()) throw new Error(`${projectDir}: tests/ changes nothing`);
}

/** The diff that overlaying `overlay` on the base commit makes; the work tree is reset after. */
async function diffOf(git: SimpleGit, overlay: string, repo: string): Promise<string> {
  await copyTree(overlay, repo);
  await git.raw(['add', '-A']);
  const diff = await git.raw(['diff', '--cached', '--no-color', '--no-ext-diff']);
  await git.raw(['reset', '-q', '--hard', 'HEAD']);
  return diff;
}

/** git with no user or system configuration, fixed identity and dates. */
function deterministicGit(dir: string): SimpleGit {
  const date = '2025-01-01T00:00:00+00:00';
  // New files get mode 100644 whatever the checkout's umask or exec bits were.
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    // No user or system configuration can change what is committed or how diffs look.
    HOME: dir,
    XDG_CONFIG_HOME: dir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: AUTHOR.name,
    GIT_AUTHOR_EMAIL: AUTHOR.email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: AUTHOR.name,
    GIT_COMMITTER_EMAIL: AUTHOR.email,
    GIT_COMMITTER_DATE: date,
  };
  return simpleGit({
    baseDir: dir,
    config: ['core.fileMode=false', 'core.autocrlf=false'],
    allowEnvironment: Object.keys(env).filter((k) => k.startsWith('GIT_')),
  }).env(env);
}

async function copyTree(from: string, to: string): Promise<void> {
  if (!existsSync(from)) return;
  await cp(from, to, { recursive: true, force: true });
}

/** A content hash of a project folder (paths and bytes, in sorted order) plus the builder version. */
async function hashTree(dir: string): Promise<string> {
  const hash = createHash('sha256').update(`builder ${BUILDER_VERSION}\n`);
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const file of files) {
    hash.update(`${relative(dir, file).split(sep).join('/')}\n`);
    hash.update(await readFile(file));
  }
  return hash.digest('hex');
}

/** The test files the F2P/P2P ids point into, which must all be run by the default command. */
export function testFilesOf(ids: string[]): string[] {
  return [...new Set(ids.map((id) => id.split('::')[0]!))];
}

/** Every graded test lives in a file the test patch touches (else the default command skips it). */
export function checkTestIdsCovered(task: SweTask): string[] {
  const touched = new Set(filesInPatch(task.testPatch));
  return testFilesOf([...task.failToPass, ...task.passToPass]).filter((f) => !touched.has(f));
}
