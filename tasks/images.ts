import { z } from 'zod';
import { PYTHON_IMAGE } from '../docker/image-names.js';
import { hasPreparedImage, type Task } from './task.js';

/**
 * How SWE-bench instance images are named, as the SWE-bench harness names them:
 * `NAMESPACE/sweb.eval.ARCH.ID:TAG`, the id lower-cased and, under a namespace, every `__` spelled
 * `_1776_` (the published images: `swebench/sweb.eval.x86_64.django_1776_django-11099:latest`).
 * An empty namespace names images built locally by the harness, which keep the `__`.
 */
export const ImageNamingSchema = z.object({
  namespace: z
    .string()
    .regex(/^$|^[a-z0-9]+([._-][a-z0-9]+)*(:\d+)?(\/[a-z0-9]+([._-][a-z0-9]+)*)*$/, 'a registry path such as swebench or ghcr.io/org, or "" for none')
    .default('swebench'),
  arch: z.enum(['x86_64', 'arm64']).default('x86_64'),
  tag: z
    .string()
    .regex(/^[\w][\w.-]{0,127}$/, 'a Docker tag')
    .default('latest'),
});
export type ImageNaming = z.input<typeof ImageNamingSchema>;

export const DEFAULT_IMAGE_NAMING = ImageNamingSchema.parse({});

/** The image of one SWE-bench instance under a naming (the published one by default). */
export function swebenchImage(instanceId: string, naming: ImageNaming = {}): string {
  const { namespace, arch, tag } = ImageNamingSchema.parse(naming);
  const key = `sweb.eval.${arch}.${instanceId.toLowerCase()}:${tag}`;
  return namespace ? `${namespace}/${key}`.replaceAll('__', '_1776_') : key;
}

/** The image a task's sandbox starts from: a SWE task's prepared image, else the project's Python image. */
export function taskImage(task: Task): string {
  return hasPreparedImage(task) ? task.repoSource.image : PYTHON_IMAGE;
}

/** The tasks of each image, in first-seen order. */
export function tasksByImage<T extends Task>(tasks: Iterable<T>): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const task of tasks) {
    const image = taskImage(task);
    const list = out.get(image);
    if (list) list.push(task);
    else out.set(image, [task]);
  }
  return out;
}
