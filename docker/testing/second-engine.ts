import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import Docker from 'dockerode';
import { findEngine, probeEndpoint } from '../engine.js';
import { RUN_LABEL } from '../labels.js';

/** The pool itself, for tests that drive it below the backend registry (its placement, its engine-loss errors). */
export { ENGINE_TIMEOUT_ENV } from '../deadline.js';
export { dockerEnginePool } from '../docker-pool.js';
export { EngineLostError } from '../pool.js';

/**
 * A second Docker engine on this machine for tests of engine pools: its own data root, exec root, pid file and socket
 * under a temporary folder, no networking of its own. Needs root and `dockerd` (scripts/setup-docker.sh installs it).
 */
export interface SecondEngine {
  /** `unix://…/docker2.sock` */
  url: string;
  dir: string;
  /** Whether the daemon still runs. */
  alive(): boolean;
  /** Copies an image of the first engine into this one. */
  load(image: string): void;
  /** SIGKILL: the engine is gone at once, as when it crashes. */
  kill(): void;
  /**
   * SIGSTOP: the engine takes connections but answers nothing, as a wedged one; returns what thaws it (SIGCONT).
   * Resolves once every thread of the daemon is stopped: the signal alone is delivered later, and a busy machine may
   * answer one more call before it takes effect.
   */
  freeze(): Promise<() => void>;
  /** The ids of the sandboxes running on it now (none once it is gone). */
  runningSandboxes(): Promise<string[]>;
  /** Ends the engine, its containers and its folder, whatever state it is in. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;

/** The engine every other test uses, as a --docker-host address. */
export async function firstEngineUrl(): Promise<string> {
  const { found } = await findEngine();
  if (!found) throw new Error('no container engine answers: run `bash scripts/setup-docker.sh` as root');
  if (found.endpoint.kind === 'DOCKER_HOST') return process.env.DOCKER_HOST!.trim();
  return `unix://${found.endpoint.options.socketPath}`;
}

function hasDockerd(): boolean {
  return spawnSync('sh', ['-c', 'command -v dockerd'], { stdio: 'ignore' }).status === 0;
}

/**
 * A bridge of the engine's own. Not `--bridge=none`: a daemon started so deletes the host's `docker0`, which the
 * first engine's containers need. With `-b` and no iptables it touches nothing of the first engine.
 */
function addBridge(): string {
  const name = `ibbr${randomBytes(4).toString('hex')}`;
  const cidr = `10.213.${1 + Math.floor(Math.random() * 250)}.1/24`;
  for (const args of [
    ['link', 'add', name, 'type', 'bridge'],
    ['addr', 'add', cidr, 'dev', name],
    ['link', 'set', name, 'up'],
  ]) {
    const r = spawnSync('ip', args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`could not make the second engine's bridge (ip ${args.join(' ')}): ${r.error?.message ?? r.stderr}`);
  }
  return name;
}

function startDaemon(dir: string, bridge: string): ChildProcess {
  const log = openSync(join(dir, 'dockerd.log'), 'a');
  const child = spawn(
    'dockerd',
    [
      '--data-root',
      join(dir, 'data'),
      '--exec-root',
      join(dir, 'exec'),
      '--pidfile',
      join(dir, 'docker.pid'),
      '-H',
      `unix://${join(dir, 'docker2.sock')}`,
      // Sandboxes have no network; this engine must not touch the first one's bridge or firewall rules.
      `--bridge=${bridge}`,
      '--iptables=false',
      '--ip-masq=false',
    ],
    { detached: true, stdio: ['ignore', log, log] },
  );
  child.unref();
  return child;
}

async function waitForAnswer(url: string, dir: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  const endpoint = { label: url, kind: 'host' as const, options: { socketPath: url.slice('unix://'.length) } };
  while (Date.now() < deadline) {
    if ((await probeEndpoint(endpoint, 2_000)).ok) return;
    if (child.exitCode !== null) break;
    await delay(250);
  }
  const log = readFileSync(join(dir, 'dockerd.log'), 'utf8').split('\n').slice(-15).join('\n');
  throw new Error(`the second dockerd did not answer at ${url}:\n${log}`);
}

/** Processes started for this engine's folder (its containerd and shims name it in their command line). */
function processesOf(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(dir)) pids.push(Number(entry));
    } catch {
      // Ended meanwhile.
    }
  }
  return pids;
}

/** The state letter of each thread of a process ('T' once a SIGSTOP has taken effect on it). */
function threadStates(pid: number): string[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    try {
      // The state follows the command name, which is in parentheses and may itself hold spaces.
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    } catch {
      return 'T'; // ended meanwhile: it answers nothing either
    }
  });
}

async function untilStopped(pid: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!threadStates(pid).every((state) => 'TtZX'.includes(state))) {
    if (Date.now() > deadline) throw new Error(`the second dockerd (pid ${pid}) did not stop within 10 s of SIGSTOP`);
    await delay(20);
  }
}

export async function startSecondEngine(): Promise<SecondEngine> {
  if (!hasDockerd()) throw new Error('dockerd is not installed, so no second engine can start: run `bash scripts/setup-docker.sh` as root');
  const dir = await mkdtemp(join(tmpdir(), 'ib-engine2-'));
  const url = `unix://${join(dir, 'docker2.sock')}`;
  const bridge = addBridge();
  let child: ChildProcess;
  try {
    child = startDaemon(dir, bridge);
    await waitForAnswer(url, dir, child);
  } catch (err) {
    spawnSync('ip', ['link', 'del', bridge]);
    throw err;
  }
  const docker = (...args: string[]) => spawnSync('docker', ['-H', url, ...args], { encoding: 'utf8' });
  return {
    url,
    dir,
    alive: () => child.exitCode === null && child.signalCode === null,
    load: (image) => {
      const r = spawnSync('sh', ['-c', 'docker save "$1" | docker -H "$2" load', 'sh', image, url], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`could not load ${image} into ${url}: ${r.stderr}`);
    },
    kill: () => {
      child.kill('SIGKILL');
    },
    freeze: async () => {
      child.kill('SIGSTOP');
      await untilStopped(child.pid!);
      return () => child.kill('SIGCONT');
    },
    runningSandboxes: async () => {
      const engine = new Docker({ socketPath: url.slice('unix://'.length) });
      const running = await engine.listContainers({ filters: { label: [RUN_LABEL] } }).catch(() => []);
      return running.map((c) => c.Id);
    },
    stop: async () => {
      try {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGCONT'); // a frozen one answers again
        } else {
          // A killed daemon leaves its containers running under its containerd: a restart takes them back to remove them.
          child = startDaemon(dir, bridge);
        }
        await waitForAnswer(url, dir, child);
        const ids = docker('ps', '-aq').stdout.split('\n').filter(Boolean);
        if (ids.length > 0) docker('rm', '-f', ...ids);
        child.kill('SIGTERM');
        await new Promise<void>((resolve) =>
          child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
        );
      } finally {
        for (const pid of processesOf(dir)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Gone already.
          }
        }
        for (const line of readFileSync('/proc/self/mounts', 'utf8').split('\n').reverse()) {
          const target = line.split(' ')[1];
          if (target?.startsWith(dir)) spawnSync('umount', ['-l', target]);
        }
        await rm(dir, { recursive: true, force: true });
        spawnSync('ip', ['link', 'del', bridge]);
      }
    },
  };
}
