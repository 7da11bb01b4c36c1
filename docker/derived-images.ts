/** Images made from a sandbox (`docker commit`), labelled so that they are found and removed with their run. */
import { withEngineDeadline } from './deadline.js';
import { getDocker } from './engine.js';
import { engineStatus } from './errors.js';
import { DERIVED_LABEL, RUN_LABEL } from './labels.js';
import type { DerivedImage, Sandbox } from './types.js';

/** `repo:tag` split as the engine takes it (a port's colon belongs to the repository). */
export function splitName(name: string): { repo: string; tag: string } {
  const colon = name.lastIndexOf(':');
  return colon > name.lastIndexOf('/') ? { repo: name.slice(0, colon), tag: name.slice(colon + 1) } : { repo: name, tag: 'latest' };
}

/**
 * Saves a sandbox's filesystem as the image `name`. Its settings are those of the image the sandbox was made from (not
 * the sandbox's own command, user or environment), with these labels and the sandbox's run added.
 */
export async function deriveImage(sandbox: Sandbox, name: string, labels: Record<string, string>): Promise<void> {
  const docker = await getDocker();
  const container = docker.getContainer(sandbox.id);
  const info = await withEngineDeadline('inspect a container', (abortSignal) => container.inspect({ abortSignal }));
  const source = await withEngineDeadline('inspect an image', () => docker.getImage(info.Image).inspect());
  const run = info.Config.Labels?.[RUN_LABEL] ?? '';
  const config = {
    ...source.Config,
    // What the body leaves unset the engine takes from the container (the sandbox's own entrypoint): empty is set.
    Entrypoint: source.Config?.Entrypoint ?? [],
    Cmd: source.Config?.Cmd ?? [],
    Env: source.Config?.Env ?? [],
    Labels: { ...(source.Config?.Labels ?? {}), ...labels, [DERIVED_LABEL]: '1', [RUN_LABEL]: run },
  };
  // Writing a repository's layer takes longer than the calls the deadline is made for.
  await withEngineDeadline(
    'save a sandbox as an image',
    (abortSignal) => container.commit({ ...splitName(name), pause: true, _body: config, abortSignal }),
    4,
  );
}

/** Every image made from a sandbox, with the run it was made for. */
export async function listDerivedImages(): Promise<DerivedImage[]> {
  const docker = await getDocker();
  const images = await withEngineDeadline('list images', (abortSignal) => docker.listImages({ filters: { label: [DERIVED_LABEL] }, abortSignal }));
  return images.flatMap((image) =>
    (image.RepoTags ?? []).filter((t) => t !== '<none>:<none>').map((name) => ({ name, runId: image.Labels?.[RUN_LABEL] ?? '' })),
  );
}

/** Removes these images; one already gone counts as removed. */
export async function removeDerivedImages(names: string[]): Promise<void> {
  const docker = await getDocker();
  for (const name of names) {
    await withEngineDeadline('remove an image', () => docker.getImage(name).remove({ force: true })).catch((err: unknown) => {
      if (engineStatus(err) !== 404) throw err;
    });
  }
}
