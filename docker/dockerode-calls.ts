import type Docker from 'dockerode';
import type { Duplex, Readable } from 'node:stream';
import { z } from 'zod';

/*
 * The engine calls whose @types/dockerode 4 signatures say less than dockerode 5 gives (no types match dockerode 5,
 * and it ships none): every stream the engine answers with is the HTTP response, a Node Readable (a hijacked one is
 * the socket, a Duplex), where the types say only NodeJS.ReadableStream; and some replies are untyped. The casts for
 * the streams live here, once; the untyped replies are parsed.
 */

/** What dockerode resolves with for a streamed answer: the engine's HTTP response. */
function response(stream: NodeJS.ReadableStream): Readable {
  return stream as Readable;
}

/** `docker pull`: the progress stream (JSON lines). */
export async function pullStream(docker: Docker, name: string, signal?: AbortSignal): Promise<Readable> {
  return response(await docker.pull(name, signal ? { abortSignal: signal } : {}));
}

/** `docker build` from a tar of the context: the progress stream (JSON lines). */
export async function buildStream(docker: Docker, context: Readable, options: Docker.ImageBuildOptions): Promise<Readable> {
  return response(await docker.buildImage(context, options));
}

export interface ImportOptions {
  repo: string;
  tag: string;
  /** Dockerfile lines applied to the imported file system (ENV, USER, CMD...). */
  changes: string[];
  message: string;
}

/** `docker import` of a file system tar: the progress stream (JSON lines). */
export async function importStream(docker: Docker, tarball: Readable, options: ImportOptions): Promise<Readable> {
  return response(await docker.importImage(tarball, options));
}

/** A tar of `path` in the container (the engine's archive call). */
export async function archiveStream(container: Docker.Container, path: string): Promise<Readable> {
  return response(await container.getArchive({ path }));
}

/** The container's stdin, stdout and stderr on one hijacked connection; attach before the start to miss nothing. */
export async function attachHijacked(container: Docker.Container, abortSignal?: AbortSignal): Promise<Duplex> {
  return (await container.attach({
    stream: true,
    stdin: true,
    stdout: true,
    stderr: true,
    hijack: true,
    ...(abortSignal ? { abortSignal } : {}),
  })) as Duplex;
}

const SizeSchema = z.object({ SizeRw: z.number().optional() });

/** Bytes a container wrote over its image, from a list or inspect reply asked with `size` (a field the types lack). */
export function sizeRw(reply: object): number {
  return SizeSchema.parse(reply).SizeRw ?? 0;
}

/** Bytes the container wrote over its image. `size` is an engine query parameter the types do not list. */
export async function writtenBytes(container: Docker.Container): Promise<number> {
  const options: Docker.ContainerInspectOptions & { size: true } = { size: true };
  return sizeRw(await container.inspect(options));
}

const ChangesSchema = z.array(z.object({ Path: z.string(), Kind: z.number() })).nullable();

/** `docker diff`: every path changed over the image, Kind 0 modified, 1 added, 2 deleted. */
export async function engineDiff(container: Docker.Container): Promise<{ Path: string; Kind: number }[]> {
  return ChangesSchema.parse(await container.changes()) ?? [];
}
