import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { UserError } from '../errors.js';

/** A file a user might give (a config, a template), written in a fresh temporary folder; returns its path. */
export async function userFile(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ib-user-file-'));
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

/** The UserError `fn` throws; fails the test if it throws anything else or nothing. */
export function userErrorOf(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return err as UserError;
  }
  throw new Error('expected a UserError');
}
