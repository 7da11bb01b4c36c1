import { type Command, Option } from 'commander';
import { z } from 'zod';

/**
 * How one experiment setting is given on the command line and listed for config files. Attached to the setting's
 * schema (`setting(schema, meta)`), so the flag, its help, its default and the config file's key are written once.
 */
export interface SettingMeta {
  /** Commander's spelling: `--max-messages <n>`, `--shuffle`, or `--no-prompt-cache` (only its presence counts). */
  flag?: string;
  /** The flag's help; the schema's default is added to it. */
  help?: string;
  /** Reads one value of the flag; a repeatable flag also gets the values before it. */
  parse?(value: string, previous: unknown): unknown;
  /** How a config file writes the value, where the schema's shape does not say it (`{NAME: FILE}`). */
  shape?: string;
  /** A few words after the key in the help's list of config file keys. */
  note?: string;
}

/** The settings' metadata, by schema. */
export const SETTINGS = z.registry<SettingMeta>();

/** The schema, with how it is given on the command line and in a config file. */
/** A list field that also accepts one bare value, so `model: openai/gpt-5` works in a config file. */
export function list<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item).min(1, 'must not be empty'));
}

export function setting<T extends z.ZodType>(schema: T, meta: SettingMeta): T {
  SETTINGS.add(schema, meta);
  return schema;
}

/** An experiment schema: the shipped one, or one a test extends. */
export type SettingsSchema = z.ZodObject;

/** One flag of a setting: where in the settings it goes (`limits.maxMessages`) and its option. */
interface SettingFlag {
  path: [string] | [string, string];
  meta: SettingMeta & { flag: string };
  field: z.ZodType;
  option: Option;
}

/** The schema inside defaults and optionals: what a value looks like. */
function inner(field: z.ZodType): z.ZodType {
  let s = field;
  while (s instanceof z.ZodDefault || s instanceof z.ZodPrefault || s instanceof z.ZodOptional) s = s.def.innerType as z.ZodType;
  return s;
}

/** A setting's default, as the help shows it; none for switches, empty lists and maps. */
function shownDefault(field: z.ZodType): string | undefined {
  const parsed = field.safeParse(undefined);
  const d = parsed.success ? parsed.data : undefined;
  if (typeof d === 'number' || (typeof d === 'string' && d !== '')) return String(d);
  if (Array.isArray(d) && d.length > 0 && d.every((v) => typeof v !== 'object')) return d.join(', ');
  return undefined;
}

/** Options made from a schema, to tell them from options a command would declare by hand. */
const FROM_SCHEMA = new WeakSet<Option>();

/** Whether the option was made from a setting's metadata. */
export function isSettingOption(option: Option): boolean {
  return FROM_SCHEMA.has(option);
}

function optionOf(meta: SettingMeta & { flag: string }, field: z.ZodType): Option {
  const shown = shownDefault(field);
  const option = new Option(meta.flag, shown === undefined ? meta.help : `${meta.help} (default ${shown})`);
  if (meta.parse) option.argParser(meta.parse.bind(meta));
  const values = inner(field);
  if (values instanceof z.ZodEnum) option.choices(values.options.map(String));
  FROM_SCHEMA.add(option);
  return option;
}

function flagOf(path: SettingFlag['path'], field: z.ZodType): SettingFlag[] {
  const meta = SETTINGS.get(field);
  return meta?.flag ? [{ path, meta: { ...meta, flag: meta.flag }, field, option: optionOf({ ...meta, flag: meta.flag }, field) }] : [];
}

/** Every setting a flag sets, in the schema's order; a group's fields (`limits.maxMessages`) each have their own. */
export function settingFlags(schema: SettingsSchema): SettingFlag[] {
  return Object.entries(schema.shape).flatMap(([key, field]) => {
    const group = inner(field);
    if (!(group instanceof z.ZodObject)) return flagOf([key], field);
    return Object.entries(group.shape).flatMap(([sub, f]) => flagOf([key, sub], f));
  });
}

/** The schema's flags on a command: help, default and choices from the schema. */
export function addSettingOptions(command: Command, schema: SettingsSchema): Command {
  for (const f of settingFlags(schema)) command.addOption(f.option);
  return command;
}

/** Commander's values in the experiment's shape; a setting whose flag was not given is left out. */
export function settingsFromFlags(opts: Record<string, unknown>, schema: SettingsSchema): Record<string, unknown> {
  const out: Record<string, Record<string, unknown> | unknown> = {};
  for (const f of settingFlags(schema)) {
    let value = opts[f.option.attributeName()];
    // Commander sets a `--no-` flag's value to true when it is absent: only its presence may override a config file.
    if (f.option.negate) value = value === false ? false : undefined;
    if (value === undefined) continue;
    const [key, sub] = f.path;
    if (sub === undefined) out[key] = value;
    else out[key] = { ...(out[key] as Record<string, unknown> | undefined), [sub]: value };
  }
  return out;
}

/**
 * A command's own options (no config file or preset sets them): the schema's flags, where a field with no default is a
 * required option, as commander checks them.
 */
export function addCommandOptions(command: Command, schema: z.ZodObject): Command {
  for (const f of settingFlags(schema)) {
    if (!f.field.safeParse(undefined).success) f.option.makeOptionMandatory();
    command.addOption(f.option);
  }
  return command;
}

/** The command's option values, parsed by its schema; a value the schema refuses is a usage error, as commander's own. */
export function commandOptions<S extends z.ZodObject>(command: Command, schema: S): z.output<S> {
  const given = command.opts();
  const parsed = schema.safeParse(settingsFromFlags(given, schema));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const f = settingFlags(schema).find((s) => s.path[0] === issue.path[0]);
  const value = f ? given[f.option.attributeName()] : undefined;
  return command.error(`error: option '${f?.option.flags ?? String(issue.path[0])}' argument '${String(value)}' is invalid. ${issue.message}`, {
    exitCode: 2,
    code: 'commander.invalidArgument',
  });
}

/** Setting → the flag (or, for a group, the flags) that sets it, to name it in errors. */
export function settingFlagNames(schema: SettingsSchema): Record<string, string> {
  const names: Record<string, string[]> = {};
  for (const f of settingFlags(schema)) (names[f.path[0]] ??= []).push(f.option.long ?? f.meta.flag);
  return Object.fromEntries(Object.entries(names).map(([key, flags]) => [key, flags.join('/')]));
}

/** Settings a later source merges into key by key: groups of flags, and maps a flag fills (`--template`). */
export function mergedByKey(schema: SettingsSchema): string[] {
  return Object.entries(schema.shape)
    .filter(([, field]) => inner(field) instanceof z.ZodObject || (inner(field) instanceof z.ZodRecord && SETTINGS.get(field)?.flag))
    .map(([key]) => key);
}

/** One config file key as the help lists it: `limits: {maxMessages, ...}`, `templates: {NAME: FILE} (note)`. */
function configKey(key: string, field: z.ZodType): string {
  const meta = SETTINGS.get(field);
  const group = inner(field);
  const shape = meta?.shape ?? (group instanceof z.ZodObject ? `{${Object.keys(group.shape).join(', ')}}` : undefined);
  return `${key}${shape ? `: ${shape}` : ''}${meta?.note ? ` (${meta.note})` : ''}`;
}

/** The help's list of config file keys, wrapped at `width` columns. */
export function configKeysHelp(schema: SettingsSchema, width = 110): string[] {
  const keys = Object.entries(schema.shape).map(([key, field]) => configKey(key, field));
  const lines = ['A config file uses the same names:'];
  keys.forEach((k, i) => {
    const word = `${k}${i === keys.length - 1 ? '.' : ','}`;
    if (lines.at(-1)!.length + 1 + word.length > width) lines.push(word);
    else lines[lines.length - 1] += ` ${word}`;
  });
  return lines;
}
