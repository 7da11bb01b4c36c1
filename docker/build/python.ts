import type Docker from 'dockerode';
import { execa } from 'execa';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { Readable } from 'node:stream';
import * as tar from 'tar-stream';
import { UserError } from '../../core/errors.js';
import { AGENT_UID, AGENT_USER } from '../../core/sandbox.js';
import { buildStream, importStream, pullStream } from '../dockerode-calls.js';
import { getDocker } from '../engine.js';
import { SandboxError, engineMessage } from '../errors.js';
import { PYTHON_IMAGE, PYTHON_RECIPE, imageStatus } from '../images.js';
import { RECIPE_LABEL } from '../labels.js';
import { debianMirror, readAptSources } from './mirror.js';
import { Steps } from './progress.js';
import { verifyPythonImage } from './verify.js';
import type { BuildOptions, BuildOutcome } from './types.js';

export type { BuildOptions, BuildOutcome } from './types.js';

const SUITE = 'bookworm';
const PACKAGES = ['python3', 'python3-pytest', 'git'];
const REGISTRY_BASE = 'python:3.11-slim';
const IMAGE_CHANGES = ['ENV LANG=C.UTF-8', `LABEL ${RECIPE_LABEL}=${PYTHON_RECIPE}`];

/**
 * Makes sure PYTHON_IMAGE is present and works: keep a current one, else pull a base from a
 * registry and add what is missing, else bootstrap it from Debian's packages. A new image is made
 * under a temporary tag, verified, and only then given the real name, so a failed or interrupted
 * build never leaves a broken image behind under the name sandboxes use.
 */
export async function ensurePythonImage(options: BuildOptions = {}): Promise<BuildOutcome> {
  const steps = options.steps ?? new Steps();
  const docker = await getDocker();
  const status = await steps.run(`looking for ${PYTHON_IMAGE}`, () => imageStatus(PYTHON_IMAGE, PYTHON_RECIPE, docker));
  if (status.state === 'present' && !options.rebuild) {
    try {
      const check = await steps.run('checking that it works as a sandbox', () => verifyPythonImage(PYTHON_IMAGE));
      return { image: PYTHON_IMAGE, how: 'present', check };
    } catch (err) {
      if (!(err instanceof SandboxError)) throw err;
      steps.note(`    ${err.message}; replacing it`);
    }
  } else if (status.state === 'stale') {
    steps.note(`    made by an older recipe (${status.recipe}, now ${PYTHON_RECIPE}); rebuilding`);
  }

  const temp = `impossiblebench/python:build-${randomBytes(4).toString('hex')}`;
  let how: BuildOutcome['how'] | undefined;
  try {
    if (!options.offline) {
      try {
        await pullAndExtend(docker, temp, steps, options.signal);
        how = 'pulled';
      } catch (err) {
        if (options.signal?.aborted) throw err;
        steps.note(`    no registry answers (${engineMessage(err).split('\n')[0]}); building from Debian packages instead`);
      }
    }
    if (!how) {
      await bootstrapFromDebian(docker, temp, steps, options);
      how = 'built';
    }
    const check = await steps.run('checking that it works as a sandbox', () => verifyPythonImage(temp));
    await steps.run(`naming it ${PYTHON_IMAGE}`, () => retag(docker, temp, PYTHON_IMAGE, status.id));
    return { image: PYTHON_IMAGE, how, check };
  } finally {
    // Only the temporary tag goes; the image stays under its real name when retagging succeeded.
    await docker
      .getImage(temp)
      .remove()
      .catch(() => undefined);
  }
}

async function retag(docker: Docker, from: string, to: string, previousId: string | undefined): Promise<void> {
  const [repo, tag] = splitRef(to);
  await docker.getImage(from).tag({ repo, tag });
  const now = await docker.getImage(to).inspect();
  // The replaced image is now nameless; remove it unless containers still use it.
  if (previousId && previousId !== now.Id)
    await docker
      .getImage(previousId)
      .remove()
      .catch(() => undefined);
}

function splitRef(ref: string): [string, string] {
  const colon = ref.lastIndexOf(':');
  return colon > ref.lastIndexOf('/') ? [ref.slice(0, colon), ref.slice(colon + 1)] : [ref, 'latest'];
}

/** Reads the engine's newline-delimited JSON progress; rejects on an error message. */
function followProgress(stream: NodeJS.ReadableStream, onLine: (text: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let pending = '';
    let failed = false;
    const handle = (line: string) => {
      if (!line.trim()) return;
      let event: { error?: string; errorDetail?: { message?: string }; status?: string; stream?: string; progress?: string };
      try {
        event = JSON.parse(line);
      } catch {
        return;
      }
      if (event.error || event.errorDetail) {
        failed = true;
        reject(new Error(event.errorDetail?.message ?? event.error));
        return;
      }
      const text = event.stream ?? [event.status, event.progress].filter(Boolean).join(' ');
      if (text.trim()) onLine(text.trim());
    };
    stream.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      lines.forEach(handle);
    });
    stream.once('end', () => {
      handle(pending);
      if (!failed) resolve();
    });
    stream.once('error', reject);
  });
}

/** `python:3.11-slim` plus git, pytest 7.2 and the agent user, built on the engine. */
async function pullAndExtend(docker: Docker, target: string, steps: Steps, signal?: AbortSignal): Promise<void> {
  await steps.run(`pulling ${REGISTRY_BASE}`, async (detail) => {
    const stream = await pullStream(docker, REGISTRY_BASE, signal);
    await followProgress(stream, detail);
  });
  await steps.run('adding git, pytest and the agent user', async (detail) => {
    const dockerfile = [
      `FROM ${REGISTRY_BASE}`,
      'RUN apt-get update && apt-get install -y --no-install-recommends git && rm -rf /var/lib/apt/lists/* \\',
      "    && pip install --no-cache-dir 'pytest==7.2.*' \\",
      `    && useradd -m -u ${AGENT_UID} -s /bin/bash ${AGENT_USER}`,
      ...IMAGE_CHANGES,
      '',
    ].join('\n');
    const context = tar.pack();
    context.entry({ name: 'Dockerfile' }, dockerfile);
    context.finalize();
    const stream = await buildStream(docker, Readable.from(context, { objectMode: false }), {
      t: target,
      rm: true,
      forcerm: true,
      ...(signal ? { abortSignal: signal } : {}),
    });
    await followProgress(stream, detail);
  });
}

function onPath(program: string): boolean {
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin']) {
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      // Not in this folder.
    }
  }
  return false;
}

/** debootstrap (minbase + python3, pytest, git), the agent user, then `docker import`. */
async function bootstrapFromDebian(docker: Docker, target: string, steps: Steps, options: BuildOptions): Promise<void> {
  const mirror = options.mirror ?? debianMirror(readAptSources(), SUITE);
  if (!mirror) {
    throw new UserError(
      'no Debian mirror found in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list',
      'impossiblebench images build --offline --mirror URL-OF-A-DEBIAN-MIRROR',
    );
  }
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new UserError('building the sandbox image from Debian packages needs root (debootstrap)', 'sudo impossiblebench images build --offline');
  }
  const run = (file: string, args: string[]) =>
    execa(file, args, {
      cancelSignal: options.signal,
      forceKillAfterDelay: 5_000,
      all: true,
      buffer: false,
      env: { DEBIAN_FRONTEND: 'noninteractive' },
    });
  const streamLines = async (proc: ReturnType<typeof run>, detail: (t: string) => void) => {
    let tail: string[] = [];
    proc.all?.on('data', (chunk: Buffer) => {
      const lines = chunk
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim());
      tail = [...tail, ...lines].slice(-20);
      const last = lines.at(-1);
      if (last) detail(last);
    });
    try {
      await proc;
    } catch (err) {
      if (options.signal?.aborted) throw err;
      throw new SandboxError(`${String((err as { command?: string }).command ?? 'a build step')} failed:\n${tail.join('\n')}`, { cause: err });
    }
  };

  if (!onPath('debootstrap')) {
    if (!onPath('apt-get'))
      throw new UserError(
        'debootstrap is not installed and there is no apt-get to install it',
        'install debootstrap, then run `impossiblebench images build --offline` again',
      );
    await steps.run('installing debootstrap', async (detail) => {
      try {
        await streamLines(run('apt-get', ['install', '-y', '-q', 'debootstrap']), detail);
      } catch {
        await streamLines(run('apt-get', ['update', '-q']), detail);
        await streamLines(run('apt-get', ['install', '-y', '-q', 'debootstrap']), detail);
      }
    });
  }

  const rootfs = mkdtempSync(join(tmpdir(), 'impossiblebench-rootfs-'));
  try {
    await steps.run(`bootstrapping Debian ${SUITE} with ${PACKAGES.join(', ')}`, (detail) =>
      streamLines(run('debootstrap', ['--variant=minbase', `--include=${PACKAGES.join(',')}`, SUITE, rootfs, mirror]), detail),
    );
    await steps.run(`adding the agent user (uid ${AGENT_UID})`, (detail) =>
      streamLines(run('chroot', [rootfs, 'useradd', '-m', '-u', String(AGENT_UID), '-s', '/bin/bash', AGENT_USER]), detail),
    );
    await steps.run('importing the file system into the engine', async (detail) => {
      // Package caches are not needed in a sandbox with no network.
      await execa('sh', ['-c', 'rm -rf "$1"/var/cache/apt/archives/*.deb "$1"/var/lib/apt/lists/*', 'sh', rootfs]);
      const packer = execa('tar', ['--numeric-owner', '-C', rootfs, '-c', '.'], { cancelSignal: options.signal, buffer: false, encoding: 'buffer' });
      const [repo, tag] = splitRef(target);
      const importing = importStream(docker, packer.stdout, { repo, tag, changes: IMAGE_CHANGES, message: `${PYTHON_RECIPE} from ${SUITE}` });
      const [stream] = await Promise.all([importing, packer]);
      await followProgress(stream, detail);
    });
  } finally {
    await removeRootfs(rootfs);
  }
}

/** Unmounts what an interrupted debootstrap may have left mounted, then removes the tree. */
async function removeRootfs(rootfs: string): Promise<void> {
  for (const mount of ['proc', 'sys', 'dev/pts', 'dev']) {
    await execa('umount', ['-l', join(rootfs, mount)], { reject: false });
  }
  // --one-file-system: never follow into anything still mounted (e.g. the host's /proc).
  await execa('rm', ['-rf', '--one-file-system', rootfs], { reject: false });
}
