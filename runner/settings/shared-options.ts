import { z } from 'zod';
import { DEFAULT_SANDBOX } from '../../docker/backends.js';
import type { DockerHostInput } from '../../docker/hosts.js';
import { DEFAULT_IMAGE_NAMING, ImageNamingSchema } from '../../tasks/images.js';
import { DEFAULT_THRESHOLD } from '../../results/monitor/metrics.js';
import { setting } from './setting-flags.js';
import {
  collect,
  DOCKER_HOST_FLAG,
  IMAGE_NAMING_FLAGS,
  numberBetween,
  positiveNumber,
  SANDBOX_FLAG,
  TEMPLATE_FLAG,
  wholeNumber,
} from './shared-flags.js';

/*
 * Fields of the commands' option schemas that several commands share, each written once: the flag and its parser are
 * fixed, while each command says in its help what the value counts, and gives its own default where it has one. A field
 * with no default is left out when its flag is not given (the command then decides, or a config file does).
 */

const whole = (min: number) => z.number().int().min(min);

/** `--concurrency <n>`: how many at once, of what the help says. */
export function concurrencyField(help: string, fallback: number): z.ZodDefault<z.ZodNumber>;
export function concurrencyField(help: string): z.ZodOptional<z.ZodNumber>;
export function concurrencyField(help: string, fallback?: number): z.ZodType {
  const n = whole(1);
  return setting(fallback === undefined ? n.optional() : n.default(fallback), { flag: '--concurrency <n>', help, parse: wholeNumber(1) });
}

/** `--cpus <n>`: the CPUs of each sandbox, as a run sets them. */
export function cpusField(help: string) {
  return setting(z.number().positive().optional(), { flag: '--cpus <n>', help, parse: positiveNumber });
}

/** `--memory <MiB>`: the memory of each sandbox, as a run sets it. */
export function memoryField(help: string) {
  return setting(z.number().int().min(64).optional(), { flag: '--memory <MiB>', help, parse: wholeNumber(64) });
}

/** `--seed <n>`: a seed of the command's random choices. */
export function seedField(help: string, fallback: number): z.ZodDefault<z.ZodNumber>;
export function seedField(help: string): z.ZodOptional<z.ZodNumber>;
export function seedField(help: string, fallback?: number): z.ZodType {
  const n = whole(0);
  return setting(fallback === undefined ? n.optional() : n.default(fallback), { flag: '--seed <n>', help, parse: wholeNumber(0) });
}

/** `--limit <n>`: at most n tasks. */
export function limitField(help: string) {
  return setting(whole(1).optional(), { flag: '--limit <n>', help, parse: wholeNumber(1) });
}

/** `--store <file>`: the SQLite results store. */
export function storeField(help: string, fallback: string): z.ZodDefault<z.ZodString>;
export function storeField(help: string): z.ZodOptional<z.ZodString>;
export function storeField(help: string, fallback?: string): z.ZodType {
  const file = z.string().min(1);
  return setting(fallback === undefined ? file.optional() : file.default(fallback), { flag: '--store <file>', help });
}

/** `--base-url <url>`: the server of a model. */
export function baseUrlField(help = 'the server of an openai-compatible model, or a proxy in front of a provider') {
  return setting(z.string().min(1).optional(), { flag: '--base-url <url>', help });
}

/** `--threshold <score>`: the suspicion score from which a monitor flags a sample. */
export function thresholdField(help: string) {
  return setting(z.number().min(0).max(100).default(DEFAULT_THRESHOLD), { flag: '--threshold <score>', help, parse: numberBetween(0, 100) });
}

/** A flag given by name alone (`--redo`). */
export function switchField(flag: string, help: string) {
  return setting(z.boolean().optional(), { flag, help });
}

/** A flag with one text value and no default (`--cache-dir <dir>`). */
export function textField(flag: string, help: string) {
  return setting(z.string().optional(), { flag, help });
}

/** A flag with one text value the command cannot do without (`--dataset <dataset>`). */
export function requiredText(flag: string, help: string) {
  return setting(z.string(), { flag, help });
}

/** A repeatable flag with one text value per use (`--dataset <name>`). */
export function repeatableText(flag: string, help: string) {
  return setting(z.array(z.string()).optional(), { flag, help, parse: collect });
}

/** Where datasets from the hub are kept, and whether the hub is asked at all. */
export const HUB_CACHE_OPTIONS = {
  cacheDir: textField('--cache-dir <dir>', 'cache folder for hub downloads and built repositories'),
  offline: switchField('--offline', 'use only the cache, never the hub'),
};

/** `--sandbox NAME`: the backend sandboxes come from, checked where the backend is made. */
export const SANDBOX_OPTIONS = { sandbox: setting(z.string().default(DEFAULT_SANDBOX), SANDBOX_FLAG) };

/** `--docker-host URL[=N]`, repeatable: several engines as one pool; none, the one engine found as usual. */
export const DOCKER_HOST_OPTIONS = {
  dockerHost: setting(z.array(z.custom<DockerHostInput>()).optional(), DOCKER_HOST_FLAG),
};

/** The backend and its engines, as every command that makes sandboxes takes them. */
export const SANDBOX_BACKEND_OPTIONS = { ...SANDBOX_OPTIONS, ...DOCKER_HOST_OPTIONS };

/**
 * How SWE-bench instance images are named, field by field; left out when not given, so a config file's naming or the
 * default holds (`imageNaming` checks them).
 */
export const IMAGE_NAMING_OPTIONS = {
  imageNamespace: textField(IMAGE_NAMING_FLAGS.namespace.flag, `${IMAGE_NAMING_FLAGS.namespace.help} (default ${DEFAULT_IMAGE_NAMING.namespace})`),
  imageTag: textField(IMAGE_NAMING_FLAGS.tag.flag, `${IMAGE_NAMING_FLAGS.tag.help} (default ${DEFAULT_IMAGE_NAMING.tag})`),
  imageArch: setting(ImageNamingSchema.shape.arch.unwrap().optional(), {
    ...IMAGE_NAMING_FLAGS.arch,
    help: `${IMAGE_NAMING_FLAGS.arch.help} (default ${DEFAULT_IMAGE_NAMING.arch})`,
  }),
};

/** `--template NAME=FILE`, repeatable: each replaces one shipped template. */
export const TEMPLATE_OPTIONS = { template: setting(z.record(z.string(), z.string()).optional(), TEMPLATE_FLAG) };
