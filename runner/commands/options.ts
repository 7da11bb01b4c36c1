import { InvalidArgumentError, Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { DEFAULT_SANDBOX, SANDBOX_BACKENDS } from '../../docker/backends.js';
import { DockerHostSchema, parseDockerHostFlag, type DockerHost, type DockerHostInput } from '../../docker/hosts.js';
import { ImageNamingSchema, type ImageNaming } from '../../tasks/images.js';
import { UserError } from '../../core/errors.js';

/** A commander parser for whole-number flags, so every command words the error the same way. */
export function wholeNumber(min: number): (value: string) => number {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected a whole number ≥ ${min}, got "${value}"`);
    return n;
  };
}

export function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`expected a positive number, got "${value}"`);
  return n;
}

/** The flags that name SWE-bench instance images, shared by every command that loads SWE-bench rows. */
export interface ImageNamingFlags {
  imageNamespace?: string;
  imageTag?: string;
  imageArch?: string;
}

export function addImageNamingOptions(command: Command): Command {
  return command
    .option('--image-namespace <ns>', 'registry path of the SWE-bench instance images, "" for images the harness built locally (default swebench)')
    .option('--image-tag <tag>', 'tag of the SWE-bench instance images (default latest)')
    .addOption(new Option('--image-arch <arch>', 'architecture in the SWE-bench instance image names (default x86_64)').choices(['x86_64', 'arm64']));
}

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

/**
 * `--sandbox NAME`: the backend sandboxes come from. Without a default where a config file may name it (`run`), so the
 * file's choice stands unless the flag is given.
 */
export function addSandboxOption(command: Command, withDefault = true): Command {
  const help = `sandbox backend: ${SANDBOX_BACKENDS.join(', ')} (default ${DEFAULT_SANDBOX})`;
  return withDefault ? command.option('--sandbox <name>', help, DEFAULT_SANDBOX) : command.option('--sandbox <name>', help);
}

/**
 * `--docker-host URL[=CAPACITY]`, repeatable: several Docker engines as one pool, each running up to CAPACITY sandboxes
 * (default 4). None: the one engine found as usual (DOCKER_HOST, then the usual sockets).
 */
export function addDockerHostOption(command: Command): Command {
  return command.option(
    '--docker-host <url[=n]>',
    'a Docker engine to run sandboxes on, repeatable to pool several: unix:///PATH, tcp://HOST:PORT (TLS from DOCKER_CERT_PATH / DOCKER_TLS_VERIFY) or ssh://USER@HOST, with =N sandboxes at once on it (default 4)',
    (value: string, previous: DockerHostInput[] | undefined) => {
      try {
        return [...(previous ?? []), parseDockerHostFlag(value)];
      } catch (err) {
        throw new InvalidArgumentError((err as Error).message);
      }
    },
  );
}

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

export const TEMPLATE_FLAG_HELP =
  'replace a shipped template (system prompt, instructions, feedback, tool description) with the text of FILE; repeatable. ' +
  '`impossiblebench templates` lists the names, `templates show NAME` prints one to start from';

export function addTemplateOption(command: Command): Command {
  return command.option('--template <NAME=FILE>', TEMPLATE_FLAG_HELP, collectTemplate);
}
