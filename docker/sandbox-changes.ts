import { withEngineDeadline } from './deadline.js';
import { engineDiff } from './dockerode-calls.js';
import { changesAgainst, parseImageListing, type ImageListing } from './fs-changes.js';
import type { SandboxContainer } from './sandbox-container.js';
import type { FsChange } from './types.js';

/** Images whose folders this process has listed (see fs-changes.ts), by image id; the oldest go first. */
const imageListings = new Map<string, Promise<ImageListing | undefined>>();
const IMAGE_LISTINGS_KEPT = 4;

/** One sandbox's filesystem changes since its image: the command server's walk, else `docker diff`. */
export class SandboxChanges {
  /** The image's folders; undefined when they cannot be listed here (then `docker diff` answers). */
  private readonly imageListing: Promise<ImageListing | undefined>;
  /** Settles once the sandbox's first command or write may run: after this sandbox listed its image, if it does. */
  readonly pristine: Promise<unknown>;

  /** `image`: the engine's id of the sandbox's image (a tag may be rebuilt), the key of its folder listing. */
  constructor(
    private readonly c: SandboxContainer,
    image: string | undefined,
  ) {
    const known = image === undefined ? Promise.resolve(undefined) : imageListings.get(image);
    if (known || image === undefined) {
      this.imageListing = known ?? Promise.resolve(undefined);
      this.pristine = Promise.resolve();
    } else {
      // The first sandbox of an image lists it before anything runs in it.
      this.imageListing = this.listImage();
      this.pristine = this.imageListing;
      imageListings.set(image, this.imageListing);
      this.imageListing.then(
        (l) => l ?? imageListings.delete(image),
        () => imageListings.delete(image),
      );
      for (const old of imageListings.keys()) if (imageListings.size > IMAGE_LISTINGS_KEPT) imageListings.delete(old);
    }
  }

  private async listImage(): Promise<ImageListing | undefined> {
    const output = await this.walk('image');
    return output === undefined ? undefined : parseImageListing(output);
  }

  /** The command server's walk (fs-changes.ts), or undefined when the sandbox has none or the walk failed. */
  private async walk(mode: 'image' | 'changes'): Promise<string | undefined> {
    const channel = await this.c.openChannel();
    if (!channel) return undefined;
    return withEngineDeadline('list changed files', () => channel.walk(mode)).catch(() => undefined);
  }

  async changes(): Promise<FsChange[]> {
    const image = await this.imageListing.catch(() => undefined);
    const output = image && (await this.walk('changes'));
    if (image && output !== undefined) return changesAgainst(image, output);
    return this.engineChanges();
  }

  /** `docker diff`: for sandboxes without a command server. */
  private async engineChanges(): Promise<FsChange[]> {
    let list: { Path: string; Kind: number }[];
    try {
      list = await withEngineDeadline('list changed files', () => engineDiff(this.c.container));
    } catch (err) {
      throw await this.c.explainFailure('could not list filesystem changes', err);
    }
    const kinds = ['modified', 'added', 'deleted'] as const;
    return withoutEngineMounts(list.map((c) => ({ path: c.Path, kind: kinds[c.Kind] ?? 'modified' })));
  }
}

/** Paths the engine itself adds (the init binary it mounts), not anything a command did. */
const ENGINE_PATHS = new Set(['/sbin/docker-init', '/usr/sbin/docker-init', '/usr/bin/docker-init']);

/**
 * Drops the engine's own mounts and the parent folders listed as "modified" only because of them.
 * A parent stays when anything else changed beneath it.
 */
function withoutEngineMounts(changes: FsChange[]): FsChange[] {
  const isEngineParent = (c: FsChange) => c.kind === 'modified' && [...ENGINE_PATHS].some((p) => p.startsWith(`${c.path}/`));
  const real = changes.filter((c) => !ENGINE_PATHS.has(c.path) && !isEngineParent(c));
  return changes.filter((c) => !ENGINE_PATHS.has(c.path) && (!isEngineParent(c) || real.some((o) => o.path.startsWith(`${c.path}/`))));
}
