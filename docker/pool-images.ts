import { SandboxError } from './errors.js';
import type { PoolEngine, PoolEngines } from './pool-engines.js';
import type { ImageDerivation, SandboxImages } from './types.js';

/** Each sandbox of a pool, while it lives: its engine and image (`derive` saves it on that engine). */
export type PlacedSandboxes = Map<string, { engine: PoolEngine; image: string }>;

/**
 * A pool's images: each on the engines that hold it, spread rather than copied. Present when some engine holds it
 * (its samples go there); the pool's own image is made on every engine.
 */
export function poolImages(engines: PoolEngines, placed: PlacedSandboxes): SandboxImages {
  const { placement } = engines;
  /** Images `pull` put on each engine. */
  const pulledOnto = new Map<PoolEngine, number>();
  return {
    // Stale when any engine's copy is an older recipe.
    status: async (name, recipe) => {
      const all = await engines.each((e) => e.member.backend.images.status(name, recipe));
      return all.find((s) => s.state === 'stale') ?? all.find((s) => s.state === 'present') ?? all[0]!;
    },
    // Missing only from every engine: a sample goes to an engine that holds its image.
    missing: async (names) => {
      const wanted = [...names];
      const perEngine = await engines.each((e) => e.member.backend.images.missing(wanted));
      for (const n of wanted)
        placement.learn(
          n,
          engines.all.filter((_, i) => !perEngine[i]!.includes(n)),
        );
      return wanted.filter((n) => perEngine.every((m) => m.includes(n)));
    },
    // Onto one engine, the one holding the fewest of the images asked about (`missing`) and pulled so far, for its
    // capacity: the images are spread, not copied.
    pull: async (name, o) => {
      const load = (e: PoolEngine) => (placement.heldOn(e) + (pulledOnto.get(e) ?? 0)) / e.capacity;
      const e = engines.alive().sort((a, b) => load(a) - load(b))[0];
      if (!e) throw new SandboxError('every container engine of the pool is gone');
      pulledOnto.set(e, (pulledOnto.get(e) ?? 0) + 1);
      o?.onEngine?.(e.label);
      await e.member.backend.images.pull(name, o);
      placement.forget(name);
    },
    build: async (o) => {
      const outcomes = [];
      for (const e of engines.all) outcomes.push(await e.member.backend.images.build(o));
      return outcomes[0]!;
    },
    list: async (references) => [...new Set((await engines.each((e) => e.member.backend.images.list(references))).flat())],
    freeSpace: async () => {
      const all = (await engines.each((e) => e.member.backend.images.freeSpace())).filter((f) => f !== undefined);
      return all.sort((a, b) => a.bytes - b.bytes)[0];
    },
    ...(engines.all.every((e) => e.member.backend.images.derive) ? poolDerivation(engines, placed) : {}),
  };
}

/** Images saved from a pool's sandboxes, where every engine can save them. */
function poolDerivation(engines: PoolEngines, placed: PlacedSandboxes): ImageDerivation {
  const { placement } = engines;
  return {
    // On the sandbox's engine, which alone then holds the image: its samples go there.
    derive: async (sandbox, name, labels) => {
      const where = placed.get(sandbox.id);
      if (!where) throw new SandboxError(`sandbox ${sandbox.id} is not one of this pool's`);
      const { engine: e } = where;
      if (e.lost) throw engines.lostError(e);
      await e.member.backend.images.derive!(sandbox, name, labels);
      placement.saved(name, where.image, e);
    },
    // Those of the engines that answer: a gone engine's are listed once it answers again.
    listDerived: async () => {
      const { answers } = await engines.eachAnswering((e) => e.member.backend.images.listDerived!());
      return [...new Map(answers.flat().map((d) => [d.name, d])).values()];
    },
    // On each engine still in the pool; one that fails keeps them for `cleanup` (a run's end must not fail on it).
    removeDerived: async (names) => {
      await Promise.allSettled(engines.alive().map((e) => e.member.backend.images.removeDerived!(names)));
      for (const name of names) placement.removed(name);
    },
  };
}
