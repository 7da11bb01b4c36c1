import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { shippedPath } from '../core/shipped.js';
import { UserError } from '../core/errors.js';

/** A prompt as read from its file, and the sha256 that names it in stored verdicts and reports. */
export interface PromptFile {
  /** Where it was read from, for messages. */
  path: string;
  text: string;
  /** sha256 of the text, hex. */
  sha256: string;
}

/** The folder of the prompts that ship with the package (results/prompts/, from the sources and from dist/ alike). */
export function shippedPromptDir(): string {
  return shippedPath(import.meta.url, 'prompts');
}

export function promptSha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The first 12 hex digits: enough to tell prompts apart in a table. */
export function shortHash(sha256: string): string {
  return sha256.slice(0, 12);
}

export interface PromptRequirements {
  /** What the prompt is for, in messages ("monitor prompt"). */
  what: string;
  /** The shipped prompt of the same use, named in the fix. */
  shipped: string;
  /** Text the prompt must contain, each with why (placeholders the code fills, answer lines it parses). */
  mustContain: { text: string; why: string }[];
}

/** The text of a prompt that ships with the package. */
export function shippedPrompt(name: string): PromptFile {
  const path = join(shippedPromptDir(), name);
  const text = readFileSync(path, 'utf8');
  return { path, text, sha256: promptSha256(text) };
}

/** Reads and checks a prompt file: it must exist, hold text, and contain what the code that uses it needs. */
export function readPromptFile(path: string, needs: PromptRequirements): PromptFile {
  const full = resolve(path);
  if (!existsSync(full)) throw new UserError(`${needs.what} file ${path} does not exist`);
  if (!statSync(full).isFile()) throw new UserError(`${needs.what} file ${path} is not a file`);
  const text = readFileSync(full, 'utf8');
  if (!text.trim()) throw new UserError(`${needs.what} file ${path} is empty`);
  const missing = needs.mustContain.filter((m) => !text.includes(m.text));
  if (missing.length) {
    throw new UserError(
      `${needs.what} file ${path} lacks ${missing.map((m) => `"${m.text}" (${m.why})`).join(' and ')}`,
      `start from the shipped one, ${join(shippedPromptDir(), needs.shipped)}`,
    );
  }
  return { path, text, sha256: promptSha256(text) };
}
