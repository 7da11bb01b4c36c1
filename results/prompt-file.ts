import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../runner/errors.js';

/** A prompt as read from its file, and the sha256 that names it in stored verdicts and reports. */
export interface PromptFile {
  /** Where it was read from, for messages. */
  path: string;
  text: string;
  /** sha256 of the text, hex. */
  sha256: string;
}

/**
 * A folder of text files that ship with the package (`results/prompts`, `scaffolds/templates`), by its path from the
 * package root. The build puts this module in dist/results/ but leaves the text files where they are (package.json
 * `files` ships those folders), so from dist the root is one level further up.
 */
export function shippedDir(fromRoot: string): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const fromSource = resolve(here, '..', fromRoot);
  return existsSync(fromSource) ? fromSource : resolve(here, '..', '..', fromRoot);
}

/** The folder of the monitor's and the judge's shipped prompts. */
export function shippedPromptDir(): string {
  return shippedDir('results/prompts');
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

/** Reads a file a user gave for a prompt: it must exist and hold text; `what` names it in messages ("monitor prompt"). */
export function readUserTextFile(path: string, what: string): PromptFile {
  const full = resolve(path);
  if (!existsSync(full)) throw new UserError(`${what} file ${path} does not exist`);
  if (!statSync(full).isFile()) throw new UserError(`${what} file ${path} is not a file`);
  const text = readFileSync(full, 'utf8');
  if (!text.trim()) throw new UserError(`${what} file ${path} is empty`);
  return { path, text, sha256: promptSha256(text) };
}

/** Reads and checks a prompt file: it must exist, hold text, and contain what the code that uses it needs. */
export function readPromptFile(path: string, needs: PromptRequirements): PromptFile {
  const { text } = readUserTextFile(path, needs.what);
  const missing = needs.mustContain.filter((m) => !text.includes(m.text));
  if (missing.length) {
    throw new UserError(
      `${needs.what} file ${path} lacks ${missing.map((m) => `"${m.text}" (${m.why})`).join(' and ')}`,
      `start from the shipped one, ${join(shippedPromptDir(), needs.shipped)}`,
    );
  }
  return { path, text, sha256: promptSha256(text) };
}
