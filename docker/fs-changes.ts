/**
 * A container's filesystem changes since its image, read inside the sandbox instead of by `docker diff` (which costs
 * the engine more than a whole grading run). Change times do the work: no process without CAP_SYS_TIME can set a ctime,
 * so everything created, written, chmod-ed or moved since the command server started has a ctime no earlier than its
 * start (on the coarse clock the kernel stamps files with). Deletions show as a changed folder missing a name that the
 * image had: the image's folders are listed once per image and process, in its first sandbox before any command runs.
 * On overlayfs (the engine's usual storage) a change anywhere below a folder copies the folder up, which gives it a new
 * ctime too, so the walk goes only into folders changed since the start; on any other storage it walks everything.
 * The walk itself is the command server's (`walk` in channel-server.ts): no process to start, no interpreter to load.
 */
import type { FsChange } from './types.js';

/**
 * Each folder of an image, with the names in it as one string, each name between NULs (which no name holds): a large
 * image lists a few hundred thousand names, and one string per folder keeps that to a few megabytes.
 */
export type ImageListing = Map<string, string>;

/** The walk's `image` output: `[folder, names]` per line. */
export function parseImageListing(output: string): ImageListing {
  const listing: ImageListing = new Map();
  for (const line of output.split('\n')) {
    if (!line) continue;
    const [folder, names] = JSON.parse(line) as [string, string[]];
    listing.set(folder, `\0${names.join('\0')}\0`);
  }
  return listing;
}

const parentOf = (path: string) => path.slice(0, path.lastIndexOf('/')) || '/';
const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const join = (folder: string, name: string) => (folder === '/' ? `/${name}` : `${folder}/${name}`);

/** The walk's `changes` output (`["c", path]` per changed entry, `["d", folder, names]` per changed folder) against the image: added, modified and deleted, as `docker diff` names them. */
export function changesAgainst(image: ImageListing, output: string): FsChange[] {
  const changes: FsChange[] = [];
  const inImage = (path: string) => image.get(parentOf(path))?.includes(`\0${baseName(path)}\0`) === true;
  for (const line of output.split('\n')) {
    if (!line) continue;
    const row = JSON.parse(line) as ['c', string] | ['d', string, string[]];
    if (row[0] === 'c') {
      changes.push({ path: row[1], kind: inImage(row[1]) ? 'modified' : 'added' });
      continue;
    }
    const before = image.get(row[1]);
    if (!before) continue;
    const now = new Set(row[2]);
    for (const name of before.split('\0')) if (name && !now.has(name)) changes.push({ path: join(row[1], name), kind: 'deleted' });
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
