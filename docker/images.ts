/** The Docker backend's image operations: status, absence and listing, asked of the engine. */
import type Docker from 'dockerode';
import { getDocker } from './engine.js';
import { withEngineDeadline } from './deadline.js';
import { engineStatus } from './errors.js';
import { RECIPE_LABEL } from './labels.js';
import type { ImageStatus } from './types.js';

export type { ImageState, ImageStatus } from './types.js';
export { PYTHON_IMAGE, PYTHON_RECIPE, SANDBOX_IMAGES } from './image-names.js';

/** Whether an image is present, and whether an older recipe made it. */
export async function imageStatus(name: string, recipe?: string, docker?: Docker): Promise<ImageStatus> {
  const engine = docker ?? (await getDocker());
  try {
    const info = await withEngineDeadline('inspect an image', () => engine.getImage(name).inspect());
    const label = info.Config?.Labels?.[RECIPE_LABEL];
    const stale = recipe !== undefined && label !== undefined && label !== recipe;
    return { name, state: stale ? 'stale' : 'present', recipe: label, id: info.Id, sizeBytes: info.Size, created: info.Created };
  } catch (err) {
    if (engineStatus(err) === 404) return { name, state: 'missing' };
    throw err;
  }
}

/** Which of these images the engine lacks (each asked once, a few at a time). */
export async function missingImages(names: Iterable<string>, docker?: Docker): Promise<string[]> {
  const engine = docker ?? (await getDocker());
  const unique = [...new Set(names)];
  const missing: string[] = [];
  for (let i = 0; i < unique.length; i += 8) {
    const batch = unique.slice(i, i + 8);
    const states = await Promise.all(batch.map((name) => imageStatus(name, undefined, engine)));
    for (const s of states) if (s.state === 'missing') missing.push(s.name);
  }
  return missing;
}

/** The present images matching any of these references (`*` wildcards): one name each (its first tag, else its id). */
export async function listImages(references: string[], docker?: Docker): Promise<string[]> {
  const engine = docker ?? (await getDocker());
  const found = await engine.listImages({ filters: { reference: references } });
  return found.map((i) => i.RepoTags?.[0] ?? i.Id);
}
