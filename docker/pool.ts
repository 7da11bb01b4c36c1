import { UserError } from '../core/errors.js';
import { totalCapacity } from './hosts.js';
import { type PoolMember, type PoolOptions, PoolEngines } from './pool-engines.js';
import { type PlacedSandboxes, poolImages } from './pool-images.js';
import { onPoolEngine } from './pool-sandbox.js';
import type { BackendCheck, RemoveResult, Sandbox, SandboxBackend, SandboxPlacement } from './types.js';

export { EngineLostError, type PoolMember, type PoolOptions } from './pool-engines.js';

const merge = (results: RemoveResult[]): RemoveResult => ({ removed: results.flatMap((r) => r.removed), failed: results.flatMap((r) => r.failed) });

/**
 * Several engines as one backend, each engine a backend of its own (`PoolMember`): each sandbox goes to the least
 * loaded engine with a free slot among those holding its image (waiting when none has one), so an image need be on one
 * engine only; an engine that stops answering is taken out, its sandboxes failing as infrastructure errors.
 */
export function enginePool(members: PoolMember[], options: PoolOptions = {}): SandboxBackend {
  const engines = new PoolEngines(members, options);
  const placed: PlacedSandboxes = new Map();
  return {
    name: members[0]!.backend.name,
    create: async (o) => {
      const { slot, ...rest } = o;
      const { engine: e, image } = await engines.acquire(o.image, slot);
      let sandbox: Sandbox;
      try {
        sandbox = await e.member.backend.create({ ...rest, image });
      } catch (err) {
        engines.release(e);
        if (await engines.gone(e)) throw engines.lostError(e);
        throw err;
      }
      placed.set(sandbox.id, { engine: e, image });
      return onPoolEngine(engines, e, sandbox, () => placed.delete(sandbox.id));
    },
    list: async (filter) => (await engines.each((e) => engines.listOn(e, filter))).flat(),
    remove: async (sandboxes) => merge(await Promise.all([...engines.byEngine(sandboxes)].map(([e, list]) => e.member.backend.remove(list)))),
    // One engine that does not answer must not keep the others' leftovers: each is cleaned, the silent ones named.
    cleanup: async (filter) => {
      const { answers, unreachable } = await engines.eachAnswering((e) => e.member.backend.cleanup(filter));
      const result = merge(answers);
      return unreachable.length > 0 ? { ...result, unreachable } : result;
    },
    connect: async () => {
      const probes = await Promise.all(engines.all.map(async (e) => ({ label: e.label, ...(await e.member.ping()) })));
      const down = probes.filter((p) => !p.ok);
      if (down.length > 0) {
        throw new UserError(
          `no container engine answers at ${down.map((p) => `${p.label} (${p.error ?? 'unknown error'})`).join(', ')}`,
          'start those engines, or leave them out of --docker-host / `dockerHosts`; `impossiblebench doctor --docker-host URL` checks one',
        );
      }
    },
    probe: () => probePool(engines),
    destroyAll: async () => {
      await Promise.allSettled(engines.all.map((e) => e.member.backend.destroyAll()));
    },
    images: poolImages(engines, placed),
    placement: poolPlacement(engines),
  };
}

/** The pool's own line first (failed when an engine does not answer, since a run needs every one), then each engine's. */
async function probePool(engines: PoolEngines): Promise<BackendCheck[]> {
  const perEngine: BackendCheck[] = [];
  let down = 0;
  for (const e of engines.all) {
    const checks = await e.member.backend.probe();
    if (checks[0]?.mark === 'fail') down++;
    for (const c of checks) perEngine.push({ ...c, text: `[${e.label}, capacity ${e.capacity}] ${c.text}` });
  }
  const size = `${engines.all.length} engines, ${totalCapacity(engines.all)} sandboxes at once`;
  const head: BackendCheck =
    down > 0 ? { mark: 'fail', text: `engine pool: ${size}; ${down} of them do not answer` } : { mark: 'ok', text: `engine pool: ${size}` };
  return [head, ...perEngine];
}

function poolPlacement(engines: PoolEngines): SandboxPlacement {
  return {
    reserve: (image) => engines.placement.reserve(image),
    survey: async (filter) => {
      const { answers, unreachable } = await engines.eachAnswering((e) => engines.listOn(e, filter));
      return { sandboxes: answers.flat(), unreachable };
    },
    missingWhere: async (names) => {
      const wanted = [...names];
      return (await engines.each(async (e) => ({ where: e.label, missing: await e.member.backend.images.missing(wanted) }))).filter(
        (p) => p.missing.length > 0,
      );
    },
  };
}
