/** Where each image is among a pool's engines, and the sandbox slots reserved ahead of a create (see `pool.ts`). */
import type { SandboxSlot } from './types.js';

/** What placement needs of an engine: its slots, and whether it was taken out of the pool. */
export interface SlottedEngine {
  capacity: number;
  inUse: number;
  lost?: string;
}

/** One asking of every engine: those holding the image, and those that could not be asked. */
export interface Holders<E> {
  holding: E[];
  unasked: E[];
}

/** Least loaded first, for its capacity. */
export function byLoad<E extends SlottedEngine>(engines: E[]): E[] {
  return [...engines].sort((a, b) => a.inUse / a.capacity - b.inUse / b.capacity);
}

export class ImagePlacement<E extends SlottedEngine> {
  /** Each image's holders, asked once (again after `forget`). */
  private readonly asked = new Map<string, Promise<Holders<E>>>();
  /** The same, once answered: for `reserve`, which cannot wait to ask. */
  private readonly heldBy = new Map<string, E[]>();
  /** The image each saved sandbox (`derive`) was made from. */
  private readonly derivedFrom = new Map<string, string>();
  /** Slots `reserve` took that no create has used yet. */
  private readonly slots = new Map<SandboxSlot, E>();

  /** `ask`: asks every engine in the pool whether it holds an image; `free`: gives a slot back (and wakes waiters). */
  constructor(
    private readonly ask: (image: string) => Promise<Holders<E>>,
    private readonly free: (engine: E) => void,
  ) {}

  holders(image: string): Promise<Holders<E>> {
    let known = this.asked.get(image);
    if (!known) {
      known = this.ask(image).then((h) => {
        this.heldBy.set(image, h.holding);
        return h;
      });
      this.asked.set(image, known);
    }
    return known;
  }

  /** What an engine said (a listing of missing images, a saved sandbox): no need to ask. */
  learn(image: string, holding: E[]): void {
    this.heldBy.set(image, holding);
    this.asked.set(image, Promise.resolve({ holding, unasked: [] }));
  }

  /** To be asked again (pulled since, removed, or held by no engine that answers). */
  forget(image: string): void {
    this.asked.delete(image);
    this.heldBy.delete(image);
  }

  /** A sandbox of `source` was saved as `name` on `engine`, which alone holds it. */
  saved(name: string, source: string, engine: E): void {
    this.derivedFrom.set(name, source);
    this.learn(name, [engine]);
  }

  removed(name: string): void {
    this.derivedFrom.delete(name);
    this.forget(name);
  }

  /**
   * The image a sandbox of `image` starts from instead: the one a saved sandbox was made from, once every engine
   * holding the saved one is gone (setup then does itself what the saved image held done).
   */
  standIn(image: string, holding: E[] = this.heldBy.get(image) ?? []): string | undefined {
    const source = this.derivedFrom.get(image);
    return source !== undefined && holding.length > 0 && holding.every((e) => e.lost) ? source : undefined;
  }

  /** How many known images an engine holds, for spreading pulls. */
  heldOn(engine: E): number {
    return [...this.heldBy.values()].filter((h) => h.includes(engine)).length;
  }

  /** A slot on the least loaded engine known to hold the image (or its stand-in) with one free; none when unknown. */
  reserve(image: string): SandboxSlot | undefined {
    const holding = this.heldBy.get(this.standIn(image) ?? image) ?? [];
    const engine = byLoad(holding.filter((e) => !e.lost && e.inUse < e.capacity))[0];
    if (!engine) return undefined;
    engine.inUse++;
    const slot: SandboxSlot = {
      image,
      release: () => {
        if (this.slots.delete(slot)) this.free(engine);
      },
    };
    this.slots.set(slot, engine);
    return slot;
  }

  /** Uses a reserved slot for a sandbox of `image`, if its engine still serves; else gives it back. */
  take(slot: SandboxSlot | undefined, image: string): { engine: E; image: string } | undefined {
    const engine = slot && this.slots.get(slot);
    if (!slot || !engine) return undefined;
    this.slots.delete(slot);
    const start = this.standIn(image) ?? image;
    if (!engine.lost && this.heldBy.get(start)?.includes(engine)) return { engine, image: start };
    this.free(engine);
    return undefined;
  }
}
