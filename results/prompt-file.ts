import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shippedPath } from '../core/shipped.js';
import { UserError } from '../core/errors.js';
import { promptSha256, readUserTextFile, type PromptFile } from '../core/text-file.js';

/** The folder of the prompts that ship with the package (results/prompts/, from the sources and from dist/ alike). */
export function shippedPromptDir(): string {
  return shippedPath(import.meta.url, 'prompts');
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
  const file = readUserTextFile(path, needs.what);
  const missing = needs.mustContain.filter((m) => !file.text.includes(m.text));
  if (missing.length) {
    throw new UserError(
      `${needs.what} file ${path} lacks ${missing.map((m) => `"${m.text}" (${m.why})`).join(' and ')}`,
      `start from the shipped one, ${join(shippedPromptDir(), needs.shipped)}`,
    );
  }
  return file;
}
