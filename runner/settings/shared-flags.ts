import { InvalidArgumentError } from 'commander';
import { resolve } from 'node:path';
import { SANDBOX_BACKENDS } from '../../docker/backends.js';
import { DockerHostSchema, parseDockerHostFlag, type DockerHost, type DockerHostInput } from '../../docker/hosts.js';
import { ImageNamingSchema, type ImageNaming } from '../../tasks/images.js';
import { UserError } from '../../core/errors.js';

/*
 * One parser per type of value, for every command's flags, so each words its error the same way (commander adds the
 * flag: `option '--concurrency <n>' argument '0' is invalid. expected a whole number ≥ 1, got "0"`).
 */

/** A whole number from `min` (and up to `max`). */
export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isSafeInteger(n) || n < min || n > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
      throw new InvalidArgumentError(`expected a whole number ${range}, got "${value}"`);
    }
    return n;
  };
}

/** A number above 0. */
export function positiveNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`expected a positive number, got "${value}"`);
  return n;
}

/** A number from `min` to `max`, ends included. */
export function numberBetween(min: number, max: number): (value: string) => number {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max)
      throw new InvalidArgumentError(`expected a number from ${min} to ${max}, got "${value}"`);
    return n;
  };
}

/** The flags that name SWE-bench instance images, shared by every command that loads SWE-bench rows. */
export interface ImageNamingFlags {
  imageNamespace?: string;
  imageTag?: string;
  imageArch?: string;
}

/** How SWE-bench instance images are named on the command line, field by field of `ImageNamingSchema` (`shared-options.ts` has their fields). */
export const IMAGE_NAMING_FLAGS = {
  namespace: { flag: '--image-namespace <ns>', help: 'registry path of the SWE-bench instance images, "" for images the harness built locally' },
  tag: { flag: '--image-tag <tag>', help: 'tag of the SWE-bench instance images' },
  arch: { flag: '--image-arch <arch>', help: 'architecture in the SWE-bench instance image names' },
} as const;

/** The naming the flags give, checked; fields not given keep their defaults. */
export function imageNaming(flags: ImageNamingFlags): ImageNaming {
  const given = { namespace: flags.imageNamespace, tag: flags.imageTag, arch: flags.imageArch };
  const parsed = ImageNamingSchema.safeParse(Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UserError(`--image-${String(issue.path[0] ?? 'namespace')}: ${issue.message}`);
  }
  return parsed.data;
}

/** `--sandbox NAME`: the backend sandboxes come from. */
export const SANDBOX_FLAG = { flag: '--sandbox <name>', help: `sandbox backend: ${SANDBOX_BACKENDS.join(', ')}` } as const;

/**
 * `--docker-host URL[=CAPACITY]`, repeatable: several Docker engines as one pool, each running up to CAPACITY sandboxes
 * (default 4). None: the one engine found as usual (DOCKER_HOST, then the usual sockets).
 */
export const DOCKER_HOST_FLAG = {
  flag: '--docker-host <url[=n]>',
  help: 'a Docker engine to run sandboxes on, repeatable to pool several: unix:///PATH, tcp://HOST:PORT (TLS from DOCKER_CERT_PATH / DOCKER_TLS_VERIFY) or ssh://USER@HOST, with =N sandboxes at once on it (default 4)',
  parse(value: string, previous: DockerHostInput[] | undefined): DockerHostInput[] {
    try {
      return [...(previous ?? []), parseDockerHostFlag(value)];
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
  },
} as const;

/** The engines the flag gave, with their defaults filled in. */
export function dockerHosts(given: DockerHostInput[] | undefined): DockerHost[] {
  return (given ?? []).map((h) => DockerHostSchema.parse(h));
}

/** `--template NAME=FILE`, repeatable: each replaces one shipped template; the file is found from where the command runs. */
export function collectTemplate(value: string, previous: Record<string, string> | undefined): Record<string, string> {
  const at = value.indexOf('=');
  if (at <= 0 || at === value.length - 1) throw new InvalidArgumentError(`expected NAME=FILE (e.g. system.full=my-system.txt), got "${value}"`);
  const name = value.slice(0, at).trim();
  if (previous && Object.hasOwn(previous, name)) throw new InvalidArgumentError(`template ${name} is given twice`);
  return { ...previous, [name]: resolve(value.slice(at + 1)) };
}

export const TEMPLATE_FLAG = {
  flag: '--template <NAME=FILE>',
  help:
    'replace a shipped template (system prompt, instructions, feedback, tool description) with the text of FILE; repeatable. ' +
    '`impossiblebench templates` lists the names, `templates show NAME` prints one to start from',
  parse: collectTemplate,
} as const;

/** A repeatable flag: each use adds one value. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** A repeatable whole-number flag. */
export function collectWhole(min: number): (value: string, previous: number[] | undefined) => number[] {
  return (value, previous) => [...(previous ?? []), wholeNumber(min)(value)];
}
