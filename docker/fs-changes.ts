/**
 * A container's filesystem changes since its image, read inside the sandbox instead of by `docker diff` (which costs
 * the engine more than a whole grading run). Change times do the work: no process without CAP_SYS_TIME can set a ctime,
 * so everything created, written, chmod-ed or moved since the command server started has a ctime no earlier than its
 * start (on the coarse clock the kernel stamps files with). Deletions show as a changed folder missing a name that the
 * image had: the image's folders are listed once per image and process, in its first sandbox before any command runs.
 */
import type { FsChange } from './types.js';

/**
 * `walk.py MODE BOOTED`: every entry on the root filesystem (other mounts are not the container's layer), as JSON lines.
 * `image`: `[folder, [names]]` for each folder. `changes`: `["c", path]` for each entry with a ctime at or after BOOTED,
 * plus the folder's names for a changed folder.
 */
export const FS_WALK_PY = String.raw`
import json, os, stat, sys
mode, booted = sys.argv[1], float(sys.argv[2])
out = sys.stdout
root_dev = os.lstat("/").st_dev
stack = ["/"]
while stack:
    folder = stack.pop()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        continue
    names = []
    for entry in entries:
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if st.st_dev != root_dev:
            continue
        names.append(entry.name)
        if stat.S_ISDIR(st.st_mode):
            stack.append(entry.path)
        if mode == "changes" and st.st_ctime >= booted:
            out.write(json.dumps(["c", entry.path]) + "\n")
    if mode == "image":
        out.write(json.dumps([folder, names]) + "\n")
    elif folder != "/" and os.lstat(folder).st_ctime >= booted:
        out.write(json.dumps(["d", folder, names]) + "\n")
`;

/** Each folder of an image, with the names in it. */
export type ImageListing = Map<string, Set<string>>;

export function parseImageListing(output: string): ImageListing {
  const listing: ImageListing = new Map();
  for (const line of output.split('\n')) {
    if (!line) continue;
    const [folder, names] = JSON.parse(line) as [string, string[]];
    listing.set(folder, new Set(names));
  }
  return listing;
}

const parentOf = (path: string) => path.slice(0, path.lastIndexOf('/')) || '/';
const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const join = (folder: string, name: string) => (folder === '/' ? `/${name}` : `${folder}/${name}`);

/** The walk's `changes` output against the image: added, modified and deleted, as `docker diff` names them. */
export function changesAgainst(image: ImageListing, output: string): FsChange[] {
  const changes: FsChange[] = [];
  const inImage = (path: string) => image.get(parentOf(path))?.has(baseName(path)) === true;
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
    for (const name of before) if (!now.has(name)) changes.push({ path: join(row[1], name), kind: 'deleted' });
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
