import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Files that ship beside the module that uses them: scripts run inside sandboxes, the report page's script, prompts.
 * tsc copies none of them into dist/, so a module built to dist/X/ finds its files in X/ under the package root
 * (package.json "files" ships those folders' scripts). From the sources, they are simply beside it.
 */
export function shippedPath(moduleUrl: string, name: string): string {
  const here = dirname(fileURLToPath(moduleUrl));
  // Built: never beside the module, where a compiled module of the same name could stand.
  for (let dir = here; dirname(dir) !== dir; dir = dirname(dir)) {
    if (basename(dir) === 'dist' && isOurPackage(dirname(dir))) return join(dirname(dir), relative(dir, here), name);
  }
  return join(here, name);
}

function isOurPackage(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'impossiblebench';
  } catch {
    return false;
  }
}

const texts = new Map<string, string>();

/** The text of a file shipped beside the module, read once. */
export function readShipped(moduleUrl: string, name: string): string {
  const path = shippedPath(moduleUrl, name);
  let text = texts.get(path);
  if (text === undefined) {
    if (!existsSync(path)) throw new Error(`${name} is missing (looked for ${path}): the impossiblebench package is incomplete; reinstall it`);
    text = readFileSync(path, 'utf8');
    texts.set(path, text);
  }
  return text;
}

/**
 * A shipped text with its `@NAME@` placeholders filled, for the few constants a script cannot take as an argument.
 * Every placeholder must be given and every value used, so a renamed one fails loudly instead of reaching a sandbox.
 */
export function fillPlaceholders(text: string, values: Record<string, string>, what: string): string {
  const unused = new Set(Object.keys(values));
  const filled = text.replace(/@([A-Z][A-Z0-9_]*)@/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${what}: no value for the placeholder ${whole}`);
    unused.delete(name);
    return value;
  });
  if (unused.size) throw new Error(`${what}: no placeholder for ${[...unused].map((n) => `@${n}@`).join(', ')}`);
  return filled;
}

/** A constant as one single-quoted shell word, for a placeholder in shell text. Never for text from outside. */
export function shellWord(value: string): string {
  if (value.includes("'")) throw new Error(`${value} cannot be a single-quoted shell word`);
  return `'${value}'`;
}
