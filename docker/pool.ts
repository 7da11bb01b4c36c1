import type { Duplex } from 'node:stream';
import { UserError } from '../core/errors.js';
import { dockerBackend } from './docker-backend.js';
import { dockerHostOptions, probeEndpoint, withEngine, type EngineEndpoint } from './engine.js';
import { SandboxError } from './errors.js';
import { totalCapacity, type DockerHost } from './hosts.js';
import { ImagePlacement, byLoad } from './placement.js';
import type { BackendCheck, RemoveResult, Sandbox, SandboxBackend, SandboxInfo, SandboxSlot, UnreachableEngine } from './types.js';

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
 * Several Docker engines as one backend: each sandbox goes to the least loaded engine with a free slot among those
 * holding its image (waiting when none has one), so an image need be on one engine only; an engine that stops
 * answering is taken out, its sandboxes failing as infrastructure errors. Every engine call of the Docker backend runs
 * inside `withEngine` for the engine it is meant for.
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

  /** Images `images.pull` put on each engine. */
  const pulledOnto = new Map<PoolEngine, number>();
  /** Each sandbox's engine and image, while it lives: `derive` saves it on that engine. */
  const placedSandboxes = new Map<string, { engine: PoolEngine; image: string }>();
  // Whether an engine holds an image is asked of every engine in the pool; one that cannot be asked is `unasked`.
  const placement = new ImagePlacement<PoolEngine>(
    async (image) => {
      const asked = await Promise.all(
        alive().map((e) =>
          on(e, () => inner.images.missing([image])).then(
            (missing) => ({ e, holds: missing.length === 0 }),
            () => ({ e, holds: undefined }),
          ),
        ),
      );
      return { holding: asked.filter((a) => a.holds === true).map((a) => a.e), unasked: asked.filter((a) => a.holds === undefined).map((a) => a.e) };
    },
    (e) => release(e),
  );

  /**
   * A slot on an engine holding the image. When every engine says it lacks it, on any engine, whose own error names
   * it as missing (a permanent error of the task); when those holding it are gone, or some engine could not be asked,
   * an infrastructure error (EngineLostError for a gone one): the sample may run once they answer again.
   */
  const acquire = async (image: string, slot?: SandboxSlot): Promise<{ engine: PoolEngine; image: string }> => {
    const reserved = placement.take(slot, image);
    if (reserved) return reserved;
    for (;;) {
      const up = alive();
      if (up.length === 0) {
        throw new SandboxError(`every container engine of the pool is gone (${engines.map((e) => `${e.endpoint.label}: ${e.lost}`).join('; ')})`, {
          stopsRun: true,
        });
      }
      const known = await placement.holders(image);
      const holding = known.holding.filter((e) => !e.lost);
      if (holding.length === 0) {
        // A saved sandbox whose engines are gone: from the image it was saved from.
        const standIn = placement.standIn(image, known.holding);
        if (standIn !== undefined) return acquire(standIn);
        placement.forget(image);
        for (const e of known.unasked) await gone(e);
        const silent = [...known.holding, ...known.unasked];
        const lost = silent.find((e) => e.lost);
        if (lost) throw lostError(lost);
        if (silent.length > 0)
          throw new SandboxError(`could not ask ${silent.map((e) => e.endpoint.label).join(', ')} whether it holds the image ${image}`);
      }
      const pick = byLoad((holding.length > 0 ? holding : up).filter((e) => e.inUse < e.capacity))[0];
      if (pick) {
        pick.inUse++;
        return { engine: pick, image };
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
      ...(sandbox.forwardPort ? { forwardPort: (port: number, connect: () => Duplex) => guard(() => sandbox.forwardPort!(port, connect)) } : {}),
      engineLost: async () => ((await gone(e)) ? lostError(e) : undefined),
      destroy: async () => {
        try {
          // A gone engine's containers are left for `cleanup`: waiting on it would hold the slot for nothing.
          if (!e.lost) await sandbox.destroy();
        } finally {
          placedSandboxes.delete(sandbox.id);
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
      const { slot, ...options } = o;
      const { engine: e, image } = await acquire(o.image, slot);
      let sandbox: Sandbox;
      try {
        sandbox = await on(e, () => inner.create({ ...options, image }));
      } catch (err) {
        release(e);
        if (await gone(e)) throw lostError(e);
        throw err;
      }
      placedSandboxes.set(sandbox.id, { engine: e, image });
      return onEngine(e, sandbox);
    },
    reserve: (image) => placement.reserve(image),
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
      // Present when some engine holds it (its samples go there); stale when any engine's copy is an older recipe.
      status: async (name, recipe) => {
        const all = await each((e) => on(e, () => inner.images.status(name, recipe)));
        return all.find((s) => s.state === 'stale') ?? all.find((s) => s.state === 'present') ?? all[0]!;
      },
      // Missing only from every engine: a sample goes to an engine that holds its image.
      missing: async (names) => {
        const wanted = [...names];
        const perEngine = await each((e) => on(e, () => inner.images.missing(wanted)));
        for (const n of wanted)
          placement.learn(
            n,
            engines.filter((_, i) => !perEngine[i]!.includes(n)),
          );
        return wanted.filter((n) => perEngine.every((m) => m.includes(n)));
      },
      missingWhere: async (names) => {
        const wanted = [...names];
        return (await each(async (e) => ({ where: e.endpoint.label, missing: await on(e, () => inner.images.missing(wanted)) }))).filter(
          (p) => p.missing.length > 0,
        );
      },
      // Onto one engine, the one holding the fewest of the images asked about (`missing`) and pulled so far, for its
      // capacity: the images are spread, not copied.
      pull: async (name, o) => {
        const load = (e: PoolEngine) => (placement.heldOn(e) + (pulledOnto.get(e) ?? 0)) / e.capacity;
        const e = alive().sort((a, b) => load(a) - load(b))[0];
        if (!e) throw new SandboxError('every container engine of the pool is gone');
        pulledOnto.set(e, (pulledOnto.get(e) ?? 0) + 1);
        o?.onEngine?.(e.endpoint.label);
        await on(e, () => inner.images.pull(name, o));
        placement.forget(name);
      },
      build: async (o) => {
        const outcomes = [];
        for (const e of engines) outcomes.push(await on(e, () => inner.images.build(o)));
        return outcomes[0]!;
      },
      list: async (references) => [...new Set((await each((e) => on(e, () => inner.images.list(references)))).flat())],
      // On the sandbox's engine, which alone then holds the image: its samples go there.
      derive: async (sandbox, name, labels) => {
        const placed = placedSandboxes.get(sandbox.id);
        if (!placed) throw new SandboxError(`sandbox ${sandbox.id} is not one of this pool's`);
        const { engine: e } = placed;
        if (e.lost) throw lostError(e);
        await on(e, () => inner.images.derive!(sandbox, name, labels));
        placement.saved(name, placed.image, e);
      },
      // Those of the engines that answer: a gone engine's are listed once it answers again.
      listDerived: async () => {
        const { answers } = await eachAnswering(() => inner.images.listDerived!());
        return [...new Map(answers.flat().map((d) => [d.name, d])).values()];
      },
      // On each engine still in the pool; one that fails keeps them for `cleanup` (a run's end must not fail on it).
      removeDerived: async (names) => {
        await Promise.allSettled(alive().map((e) => on(e, () => inner.images.removeDerived!(names))));
        for (const name of names) placement.removed(name);
      },
      freeSpace: async () => {
        const all = (await each((e) => on(e, () => inner.images.freeSpace()))).filter((f) => f !== undefined);
        return all.sort((a, b) => a.bytes - b.bytes)[0];
      },
    },
  };
}
