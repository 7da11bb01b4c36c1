import { UserError } from '../core/errors.js';
import { dockerBackend } from './docker-backend.js';
import { dockerHostOptions, probeEndpoint, withEngine, type EngineEndpoint } from './engine.js';
import { SandboxError } from './errors.js';
import { totalCapacity, type DockerHost } from './hosts.js';
import type { BackendCheck, RemoveResult, Sandbox, SandboxBackend, SandboxInfo, UnreachableEngine } from './types.js';

/** How long a pool waits for an engine that just failed a call to answer a ping before it counts it as gone. */
const LOST_PROBE_MS = 3_000;

interface PoolEngine {
  endpoint: EngineEndpoint;
  capacity: number;
  inUse: number;
  /** Why the engine was taken out of the pool; set once, never cleared within a process. */
  lost?: string;
}

/** The connection to one pool engine: its own TLS settings over the environment's. */
function hostEndpoint(host: DockerHost, env: NodeJS.ProcessEnv = process.env): EngineEndpoint {
  const hostEnv = {
    ...env,
    ...(host.certPath !== undefined ? { DOCKER_CERT_PATH: host.certPath } : {}),
    ...(host.tlsVerify !== undefined ? { DOCKER_TLS_VERIFY: host.tlsVerify ? '1' : '' } : {}),
  };
  return { label: host.url, kind: 'host', options: dockerHostOptions(host.url, hostEnv) };
}

export interface PoolOptions {
  /** Told once per engine taken out mid-run (for the log and the progress line). */
  onLost?: (engine: string, reason: string, left: number) => void;
}

/** Thrown by calls of a sandbox whose engine is gone: an infrastructure error, so the sample is tried again. */
export class EngineLostError extends SandboxError {
  constructor(engine: string, reason: string) {
    super(`the container engine ${engine} is gone (${reason}); the sample will be tried again on another engine`, { lostEngine: engine });
    this.name = 'EngineLostError';
  }
}

/**
 * Several Docker engines as one backend: each sandbox goes to the least loaded engine with a free slot (waiting when
 * none has one), and an engine that stops answering is taken out, its sandboxes failing as infrastructure errors.
 * Every engine call of the Docker backend runs inside `withEngine` for the engine it is meant for.
 */
export function enginePool(hosts: DockerHost[], options: PoolOptions = {}): SandboxBackend {
  if (hosts.length === 0) throw new UserError('an engine pool needs at least one engine');
  const inner = dockerBackend();
  const engines: PoolEngine[] = hosts.map((h) => ({ endpoint: hostEndpoint(h), capacity: h.capacity, inUse: 0 }));
  const labels = new Set<string>();
  for (const e of engines) {
    if (labels.has(e.endpoint.label))
      throw new UserError(`--docker-host ${e.endpoint.label} is given twice`, 'give each engine once, with its whole capacity');
    labels.add(e.endpoint.label);
  }
  let waiters: Array<() => void> = [];
  const wake = () => {
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  const alive = () => engines.filter((e) => !e.lost);
  const on = <T>(e: PoolEngine, fn: () => Promise<T>) => withEngine(e.endpoint, fn);

  const markLost = (e: PoolEngine, reason: string) => {
    if (e.lost) return;
    e.lost = reason;
    options.onLost?.(e.endpoint.label, reason, alive().length);
    wake();
  };
  /** Whether the engine is gone: already taken out, or not answering a ping now. */
  const gone = async (e: PoolEngine): Promise<boolean> => {
    if (e.lost) return true;
    const probe = await probeEndpoint(e.endpoint, LOST_PROBE_MS);
    if (!probe.ok) markLost(e, probe.error ?? 'no answer');
    return !probe.ok;
  };
  const lostError = (e: PoolEngine) => new EngineLostError(e.endpoint.label, e.lost ?? 'no answer');

  const acquire = async (): Promise<PoolEngine> => {
    for (;;) {
      const up = alive();
      if (up.length === 0) {
        throw new SandboxError(`every container engine of the pool is gone (${engines.map((e) => `${e.endpoint.label}: ${e.lost}`).join('; ')})`, {
          stopsRun: true,
        });
      }
      const free = up.filter((e) => e.inUse < e.capacity).sort((a, b) => a.inUse / a.capacity - b.inUse / b.capacity);
      const pick = free[0];
      if (pick) {
        pick.inUse++;
        return pick;
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const release = (e: PoolEngine) => {
    e.inUse--;
    wake();
  };

  /** The engine's sandbox, each call failing as EngineLostError once the engine is gone. */
  const onEngine = (e: PoolEngine, sandbox: Sandbox): Sandbox => {
    const guard = async <T>(call: () => Promise<T>): Promise<T> => {
      if (e.lost) throw lostError(e);
      try {
        return await call();
      } catch (err) {
        if (await gone(e)) throw lostError(e);
        throw err;
      }
    };
    let released = false;
    return {
      id: sandbox.id,
      exec: (command, o) => guard(() => sandbox.exec(command, o)),
      writeFiles: (files) => guard(() => sandbox.writeFiles(files)),
      readFile: (path) => guard(() => sandbox.readFile(path)),
      readDir: (path) => guard(() => sandbox.readDir(path)),
      changes: () => guard(() => sandbox.changes()),
      imageId: () => guard(async () => sandbox.imageId?.()),
      diskUsage: () => guard(() => sandbox.diskUsage()),
      engineLost: async () => ((await gone(e)) ? lostError(e) : undefined),
      destroy: async () => {
        try {
          // A gone engine's containers are left for `cleanup`: waiting on it would hold the slot for nothing.
          if (!e.lost) await sandbox.destroy();
        } finally {
          if (!released) {
            released = true;
            release(e);
          }
        }
      },
    };
  };

  /** One call on every engine, its errors naming the engine. */
  const each = <T>(fn: (e: PoolEngine) => Promise<T>): Promise<T[]> =>
    Promise.all(
      engines.map((e) =>
        fn(e).catch((err: unknown) => {
          throw err instanceof UserError ? err : new SandboxError(`${e.endpoint.label}: ${(err as Error).message ?? String(err)}`, { cause: err });
        }),
      ),
    );

  const byEngine = (sandboxes: SandboxInfo[]) => {
    const groups = new Map<PoolEngine, SandboxInfo[]>();
    for (const s of sandboxes) {
      const e = engines.find((x) => x.endpoint.label === s.engine) ?? engines[0]!;
      groups.set(e, [...(groups.get(e) ?? []), s]);
    }
    return groups;
  };
  const merge = (results: RemoveResult[]): RemoveResult => ({ removed: results.flatMap((r) => r.removed), failed: results.flatMap((r) => r.failed) });
  /** One call on every engine, kept apart: what those that answered returned, and those that did not. */
  const eachAnswering = async <T>(fn: (e: PoolEngine) => Promise<T>): Promise<{ answers: T[]; unreachable: UnreachableEngine[] }> => {
    const settled = await Promise.allSettled(engines.map((e) => on(e, () => fn(e))));
    return {
      answers: settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])),
      unreachable: settled.flatMap((s, i) =>
        s.status === 'rejected' ? [{ engine: engines[i]!.endpoint.label, error: (s.reason as Error).message ?? String(s.reason) }] : [],
      ),
    };
  };
  const listLabelled = async (e: PoolEngine, filter?: { runId?: string; diskUsage?: boolean }) =>
    (await inner.list(filter)).map((s) => ({ ...s, engine: e.endpoint.label }));

  return {
    name: 'docker',
    create: async (o) => {
      const e = await acquire();
      let sandbox: Sandbox;
      try {
        sandbox = await on(e, () => inner.create(o));
      } catch (err) {
        release(e);
        if (await gone(e)) throw lostError(e);
        throw err;
      }
      return onEngine(e, sandbox);
    },
    list: async (filter) => (await each((e) => on(e, () => listLabelled(e, filter)))).flat(),
    survey: async (filter) => {
      const { answers, unreachable } = await eachAnswering((e) => listLabelled(e, filter));
      return { sandboxes: answers.flat(), unreachable };
    },
    remove: async (sandboxes) => merge(await Promise.all([...byEngine(sandboxes)].map(([e, list]) => on(e, () => inner.remove(list))))),
    // One engine that does not answer must not keep the others' leftovers: each is cleaned, the silent ones named.
    cleanup: async (filter) => {
      const { answers, unreachable } = await eachAnswering(() => inner.cleanup(filter));
      const result = merge(answers);
      return unreachable.length > 0 ? { ...result, unreachable } : result;
    },
    connect: async () => {
      const probes = await Promise.all(engines.map((e) => probeEndpoint(e.endpoint)));
      const down = probes.filter((p) => !p.ok);
      if (down.length > 0) {
        throw new UserError(
          `no container engine answers at ${down.map((p) => `${p.endpoint.label} (${p.error ?? 'unknown error'})`).join(', ')}`,
          'start those engines, or leave them out of --docker-host / `dockerHosts`; `impossiblebench doctor --docker-host URL` checks one',
        );
      }
    },
    probe: async () => {
      const perEngine: BackendCheck[] = [];
      let down = 0;
      for (const e of engines) {
        const checks = await on(e, () => inner.probe());
        if (checks[0]?.mark === 'fail') down++;
        for (const c of checks) perEngine.push({ ...c, text: `[${e.endpoint.label}, capacity ${e.capacity}] ${c.text}` });
      }
      const size = `${engines.length} engines, ${totalCapacity(engines)} sandboxes at once`;
      // The pool's own line leads: failed when an engine does not answer, since a run needs every one.
      const head: BackendCheck =
        down > 0 ? { mark: 'fail', text: `engine pool: ${size}; ${down} of them do not answer` } : { mark: 'ok', text: `engine pool: ${size}` };
      return [head, ...perEngine];
    },
    destroyAll: () => inner.destroyAll(),
    images: {
      status: async (name, recipe) => {
        const all = await each((e) => on(e, () => inner.images.status(name, recipe)));
        return all.find((s) => s.state !== 'present') ?? all[0]!;
      },
      // Missing on any engine: a sample placed there would fail where another passes. Pulling pulls on every engine.
      missing: async (names) => {
        const wanted = [...names];
        const perEngine = await each((e) => on(e, () => inner.images.missing(wanted)));
        return wanted.filter((n) => perEngine.some((m) => m.includes(n)));
      },
      missingWhere: async (names) => {
        const wanted = [...names];
        return (await each(async (e) => ({ where: e.endpoint.label, missing: await on(e, () => inner.images.missing(wanted)) }))).filter(
          (p) => p.missing.length > 0,
        );
      },
      pull: async (name, o) => {
        for (const e of engines) await on(e, () => inner.images.pull(name, o));
      },
      build: async (o) => {
        const outcomes = [];
        for (const e of engines) outcomes.push(await on(e, () => inner.images.build(o)));
        return outcomes[0]!;
      },
      list: async (references) => {
        const all = await each((e) => on(e, () => inner.images.list(references)));
        return all[0]!.filter((n) => all.every((l) => l.includes(n)));
      },
      freeSpace: async () => {
        const all = (await each((e) => on(e, () => inner.images.freeSpace()))).filter((f) => f !== undefined);
        return all.sort((a, b) => a.bytes - b.bytes)[0];
      },
    },
  };
}
