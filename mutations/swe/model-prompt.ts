import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shippedPath } from '../../core/shipped.js';
import { UserError } from '../../core/errors.js';
import { promptSha256, readUserTextFile, type PromptFile } from '../../core/text-file.js';
import { MODEL_PROMPT_PLACEHOLDERS } from './model-fallback.js';

/** The shipped template of the model fallback's prompt. */
export const MODEL_PROMPT_FILE = 'swe-variant.txt';

/** The fallback's prompt template: the shipped one, or a file of the user's that holds every placeholder. */
export function modelPromptFile(path?: string): PromptFile {
  const shipped = join(shippedPath(import.meta.url, '../prompts'), MODEL_PROMPT_FILE);
  if (!path) {
    const text = readFileSync(shipped, 'utf8');
    return { path: shipped, text, sha256: promptSha256(text) };
  }
  const file = readUserTextFile(path, 'mutation prompt');
  const missing = MODEL_PROMPT_PLACEHOLDERS.filter((p) => !file.text.includes(p));
  if (missing.length > 0) throw new UserError(`mutation prompt file ${path} lacks ${missing.join(', ')}`, `start from the shipped one, ${shipped}`);
  return file;
}
