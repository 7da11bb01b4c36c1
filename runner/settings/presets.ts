import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { shippedPath } from '../../core/shipped.js';
import { UserError } from '../../core/errors.js';
import { mergeSettings, readConfigFile } from './config.js';

/**
 * Presets: experiment files shipped in the package (`runner/settings/presets/NAME.yaml`, the `--config` shape), so a published
 * configuration is one flag. `--preset` is the base, a `--config` file goes over it, and flags over both.
 */

function presetFolder(): string {
  return shippedPath(import.meta.url, 'presets');
}

/** The shipped presets' names, sorted. */
export function presetNames(): string[] {
  return readdirSync(presetFolder())
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

/** The file of a shipped preset; an unknown name is a one-line error listing the known ones. */
export function presetFile(name: string): string {
  const known = presetNames();
  if (!known.includes(name)) throw new UserError(`unknown preset "${name}"; known: ${known.join(', ')}`);
  return join(presetFolder(), `${name}.yaml`);
}

export async function readPreset(name: string): Promise<Record<string, unknown>> {
  return readConfigFile(presetFile(name));
}

/** Where the settings not given by flags come from, and what names them in errors. */
export interface BaseSettings {
  path: string;
  settings: Record<string, unknown>;
}

/**
 * The settings under the flags: a preset, a config file over it (a list in the file replaces the preset's, `limits`
 * and the other groups are merged field by field, as flags are), or neither.
 */
export async function baseSettings(given: { preset?: string | undefined; config?: string | undefined }): Promise<BaseSettings | undefined> {
  const preset = given.preset === undefined ? undefined : await readPreset(given.preset);
  const file = given.config === undefined ? undefined : await readConfigFile(given.config);
  if (preset && file) return { path: `${given.config} (over preset ${given.preset})`, settings: mergeSettings(preset, file) };
  if (preset) return { path: `preset ${given.preset}`, settings: preset };
  if (file) return { path: given.config!, settings: file };
  return undefined;
}
