import { UserError } from '../core/errors.js';
import { SandboxError } from './errors.js';
import { ImagePlacement, byLoad } from './placement.js';
import type { SandboxBackend, SandboxInfo, SandboxSlot, UnreachableEngine } from './types.js';

/** How long a pool waits for an engine that just failed a call to answer a ping before it counts it as gone. */
const LOST_PROBE_MS = 3_000;

/** One engine of a pool: a backend of its own, how many sandboxes it runs at once, and how to tell it is gone. */
export interface PoolMember {
  /** What the user knows the engine by (its address); one per engine of a pool. */
  label: string;
  capacity: number;
  backend: SandboxBackend;
  /** Whether the engine answers now, within `timeoutMs` (default: the backend's own); never throws. */
  ping(timeoutMs?: number): Promise<{ ok: boolean; error?: string }>;
}

export interface PoolOptions {
  /** Told once per engine taken out mid-run (for the log and the progress line). */
  onLost?: (engine: string, reason: string, left: number) => void;
}

/** An engine of the pool and its slots in use. */
export interface PoolEngine {
  member: PoolMember;
  label: string;
  capacity: number;
  inUse: number;
  /** Why the engine was taken out of the pool; set once, never cleared within a process. */
  lost?: string;
}

/** Thrown by calls of a sandbox whose engine is gone: an infrastructure error, so the sample is tried again. */
export class EngineLostError extends SandboxError {
  constructor(engine: string, reason: string) {
    super(`the container engine ${engine} is gone (${reason}); the sample will be tried again on another engine`, { lostEngine: engine });
    this.name = 'EngineLostError';
  }
}

/** A pool's engines: which are gone, their slots, and where each image is among them. */
export class PoolEngines {
  readonly all: PoolEngine[];
  private waiters: Array<() => void> = [];
  // Whether an engine holds an image is asked of every engine in the pool; one that cannot be asked is `unasked`.
  readonly placement = new ImagePlacement<PoolEngine>(
    async (image) => {
      const asked = await Promise.all(
        this.alive().map((e) =>
          e.member.backend.images.missing([image]).then(
            (missing) => ({ e, holds: missing.length === 0 }),
            () => ({ e, holds: undefined }),
          ),
        ),
      );
      return { holding: asked.filter((a) => a.holds === true).map((a) => a.e), unasked: asked.filter((a) => a.holds === undefined).map((a) => a.e) };
    },
    (e) => this.release(e),
  );

  constructor(
    members: PoolMember[],
    private readonly options: PoolOptions,
  ) {
    if (members.length === 0) throw new UserError('an engine pool needs at least one engine');
    this.all = members.map((m) => ({ member: m, label: m.label, capacity: m.capacity, inUse: 0 }));
  }

  alive(): PoolEngine[] {
    return this.all.filter((e) => !e.lost);
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private markLost(e: PoolEngine, reason: string): void {
    if (e.lost) return;
    e.lost = reason;
    this.options.onLost?.(e.label, reason, this.alive().length);
    this.wake();
  }

  /** Whether the engine is gone: already taken out, or not answering a ping now. */
  async gone(e: PoolEngine): Promise<boolean> {
    if (e.lost) return true;
    const probe = await e.member.ping(LOST_PROBE_MS);
    if (!probe.ok) this.markLost(e, probe.error ?? 'no answer');
    return !probe.ok;
  }

  lostError(e: PoolEngine): EngineLostError {
    return new EngineLostError(e.label, e.lost ?? 'no answer');
  }

  /**
   * A slot on an engine holding the image. When every engine says it lacks it, on any engine, whose own error names
   * it as missing (a permanent error of the task); when those holding it are gone, or some engine could not be asked,
   * an infrastructure error (EngineLostError for a gone one): the sample may run once they answer again.
   */
  async acquire(image: string, slot?: SandboxSlot): Promise<{ engine: PoolEngine; image: string }> {
    const reserved = this.placement.take(slot, image);
    if (reserved) return reserved;
    for (;;) {
      const up = this.alive();
      if (up.length === 0) {
        throw new SandboxError(`every container engine of the pool is gone (${this.all.map((e) => `${e.label}: ${e.lost}`).join('; ')})`, {
          stopsRun: true,
        });
      }
      const known = await this.placement.holders(image);
      const holding = known.holding.filter((e) => !e.lost);
      if (holding.length === 0) {
        // A saved sandbox whose engines are gone: from the image it was saved from.
        const standIn = this.placement.standIn(image, known.holding);
        if (standIn !== undefined) return this.acquire(standIn);
        this.placement.forget(image);
        for (const e of known.unasked) await this.gone(e);
        const silent = [...known.holding, ...known.unasked];
        const lost = silent.find((e) => e.lost);
        if (lost) throw this.lostError(lost);
        if (silent.length > 0) throw new SandboxError(`could not ask ${silent.map((e) => e.label).join(', ')} whether it holds the image ${image}`);
      }
      const pick = byLoad((holding.length > 0 ? holding : up).filter((e) => e.inUse < e.capacity))[0];
      if (pick) {
        pick.inUse++;
        return { engine: pick, image };
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  release(e: PoolEngine): void {
    e.inUse--;
    this.wake();
  }

  /** One call on every engine, its errors naming the engine. */
  each<T>(fn: (e: PoolEngine) => Promise<T>): Promise<T[]> {
    return Promise.all(
      this.all.map((e) =>
        fn(e).catch((err: unknown) => {
          throw err instanceof UserError ? err : new SandboxError(`${e.label}: ${(err as Error).message ?? String(err)}`, { cause: err });
        }),
      ),
    );
  }

  /** One call on every engine, kept apart: what those that answered returned, and those that did not. */
  async eachAnswering<T>(fn: (e: PoolEngine) => Promise<T>): Promise<{ answers: T[]; unreachable: UnreachableEngine[] }> {
    const settled = await Promise.allSettled(this.all.map((e) => fn(e)));
    return {
      answers: settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])),
      unreachable: settled.flatMap((s, i) =>
        s.status === 'rejected' ? [{ engine: this.all[i]!.label, error: (s.reason as Error).message ?? String(s.reason) }] : [],
      ),
    };
  }

  /** Sandboxes as `list` found them, by the engine they are on. */
  byEngine(sandboxes: SandboxInfo[]): Map<PoolEngine, SandboxInfo[]> {
    const groups = new Map<PoolEngine, SandboxInfo[]>();
    for (const s of sandboxes) {
      const e = this.all.find((x) => x.label === s.engine) ?? this.all[0]!;
      groups.set(e, [...(groups.get(e) ?? []), s]);
    }
    return groups;
  }

  /** What `list` finds on one engine, each sandbox naming it. */
  async listOn(e: PoolEngine, filter?: { runId?: string; diskUsage?: boolean }): Promise<SandboxInfo[]> {
    return (await e.member.backend.list(filter)).map((s) => ({ ...s, engine: e.label }));
  }
}
