import { z } from 'zod';
import { UserError } from '../core/errors.js';

/** Sandboxes one engine runs at once when its entry names no capacity (today's default concurrency). */
export const DEFAULT_ENGINE_CAPACITY = 4;

/**
 * One engine of a pool, as `--docker-host URL[=CAPACITY]` or the config's `dockerHosts` give it. TLS for tcp:// follows
 * the Docker CLI's conventions (DOCKER_CERT_PATH, DOCKER_TLS_VERIFY), or this entry's own `certPath` / `tlsVerify`.
 */
export const DockerHostSchema = z.strictObject({
  url: z.string().regex(/^(unix|tcp|ssh|npipe):\/\/\S+$/, 'expected unix:///PATH, tcp://HOST:PORT or ssh://USER@HOST'),
  capacity: z.number().int().positive().default(DEFAULT_ENGINE_CAPACITY),
  certPath: z.string().min(1).optional(),
  tlsVerify: z.boolean().optional(),
});
export type DockerHost = z.infer<typeof DockerHostSchema>;
export type DockerHostInput = z.input<typeof DockerHostSchema>;

/** How many sandboxes engines run at once together: a pool's default concurrency. */
export function totalCapacity(engines: readonly { capacity: number }[]): number {
  return engines.reduce((n, e) => n + e.capacity, 0);
}

/** `URL` or `URL=CAPACITY` from the command line; the capacity is the last `=N`. */
export function parseDockerHostFlag(value: string): DockerHostInput {
  const m = /^(.*)=(\d+)$/.exec(value.trim());
  const entry = m ? { url: m[1]!, capacity: Number(m[2]) } : { url: value.trim() };
  const parsed = DockerHostSchema.safeParse(entry);
  if (!parsed.success)
    throw new UserError(
      `--docker-host ${value}: ${parsed.error.issues[0]!.message}`,
      'e.g. --docker-host unix:///var/run/docker.sock=4 --docker-host tcp://10.0.0.2:2376=8',
    );
  return entry;
}
