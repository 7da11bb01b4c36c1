import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from './errors.js';

/** A text a user or the package gives (a prompt, a template), and the sha256 that names it in records and reports. */
export interface PromptFile {
  /** Where it was read from, for messages. */
  path: string;
  text: string;
  /** sha256 of the text, hex. */
  sha256: string;
}

export function promptSha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The first 12 hex digits: enough to tell prompts apart in a table. */
export function shortHash(sha256: string): string {
  return sha256.slice(0, 12);
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
