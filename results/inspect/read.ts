import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { z } from 'zod';
import { UserError } from '../../core/errors.js';

/**
 * Reads an Inspect eval log, `.eval` or `.json`, checked with zod at the edge: an entry or field that is not what a
 * log of schema version 2 holds fails in one line naming the file, the entry and the field. It checks what our own
 * logs rely on and lets the rest through, so logs Inspect wrote read as well.
 */

const ScoreSchema = z.object({
  value: z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number(), z.boolean()])), z.record(z.string(), z.unknown())]),
  answer: z.string().nullish(),
  explanation: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

const ContentSchema = z.union([
  z.string(),
  z.array(z.looseObject({ type: z.string(), text: z.string().optional(), reasoning: z.string().optional(), redacted: z.boolean().optional() })),
]);

const ToolCallSchema = z.looseObject({
  id: z.string(),
  function: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  parse_error: z.string().nullish(),
});

export const MessageSchema = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('system'), content: ContentSchema }),
  z.looseObject({ role: z.literal('user'), content: ContentSchema }),
  z.looseObject({ role: z.literal('assistant'), content: ContentSchema, tool_calls: z.array(ToolCallSchema).nullish(), model: z.string().nullish() }),
  z.looseObject({
    role: z.literal('tool'),
    content: ContentSchema,
    tool_call_id: z.string().nullish(),
    function: z.string().nullish(),
    error: z.object({ type: z.string(), message: z.string() }).nullish(),
  }),
]);
export type ReadMessage = z.infer<typeof MessageSchema>;

const UsageSchema = z.looseObject({ input_tokens: z.number().int(), output_tokens: z.number().int(), total_tokens: z.number().int() });

export const SampleSchema = z.looseObject({
  id: z.union([z.string(), z.number().int()]),
  epoch: z.number().int().positive(),
  input: z.union([z.string(), z.array(MessageSchema)]),
  target: z.union([z.string(), z.array(z.string())]),
  messages: z.array(MessageSchema),
  scores: z.record(z.string(), ScoreSchema).nullish(),
  // Older logs may lack these.
  metadata: z.record(z.string(), z.unknown()).default({}),
  model_usage: z.record(z.string(), UsageSchema).default({}),
  total_time: z.number().nullish(),
  working_time: z.number().nullish(),
  error: z.object({ message: z.string(), traceback: z.string() }).nullish(),
});
export type ReadSample = z.infer<typeof SampleSchema>;

const MetricSchema = z.looseObject({ name: z.string(), value: z.number() });

/** The schema versions we read: 3 adds a pool for the messages its events share, and keeps each sample's messages whole. */
export const READ_VERSIONS = [2, 3] as const;

export const HeaderSchema = z.looseObject({
  version: z.union(READ_VERSIONS.map((v) => z.literal(v))),
  status: z.enum(['started', 'success', 'cancelled', 'error']),
  eval: z.looseObject({
    run_id: z.string(),
    created: z.string(),
    task: z.string(),
    task_args: z.record(z.string(), z.unknown()),
    model: z.string(),
    dataset: z.looseObject({ sample_ids: z.array(z.union([z.string(), z.number()])).nullish() }),
    metadata: z.record(z.string(), z.unknown()).nullish(),
  }),
  plan: z.looseObject({ name: z.string(), steps: z.array(z.looseObject({ solver: z.string() })) }),
  results: z
    .looseObject({
      total_samples: z.number().int(),
      completed_samples: z.number().int(),
      scores: z.array(z.looseObject({ name: z.string(), scorer: z.string(), metrics: z.record(z.string(), MetricSchema) })),
    })
    .nullish(),
  stats: z.looseObject({ started_at: z.string(), completed_at: z.string(), model_usage: z.record(z.string(), UsageSchema) }),
});
export type ReadHeader = z.infer<typeof HeaderSchema>;

const SummariesSchema = z.array(
  z.looseObject({ id: z.union([z.string(), z.number()]), epoch: z.number().int(), scores: z.record(z.string(), ScoreSchema).nullish() }),
);
const ReductionsSchema = z.array(
  z.looseObject({ scorer: z.string(), samples: z.array(ScoreSchema.extend({ sample_id: z.union([z.string(), z.number()]).nullish() })) }),
);

/** A sample the log holds but that cannot be read: the rest of the log still is. */
export interface BadSample {
  id: string;
  epoch: string;
  /** One line: the file, the sample and the field. */
  message: string;
}

export interface ReadLog {
  header: ReadHeader;
  samples: ReadSample[];
  bad: BadSample[];
  summaries: z.infer<typeof SummariesSchema>;
  reductions: z.infer<typeof ReductionsSchema>;
  /** The `.eval` zip's entry names, in the zip's order; empty for a `.json` log. */
  entries: string[];
}

/**
 * The value as `schema` reads it, or a one-line `UserError` naming the first field it refuses, under `prefix` (the
 * path of `value` in its document), after `where` (the file, entry or sample) when given.
 */
export function checkField<T>(schema: z.ZodType<T>, value: unknown, prefix: string, where?: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = [prefix, ...issue.path].filter((p) => p !== '').join('.') || '(top level)';
  throw new UserError(`${where ? `${where}: ` : ''}field ${path}: ${issue.message}`);
}

const check = <T>(schema: z.ZodType<T>, value: unknown, where: string): T => checkField(schema, value, '', where);

function json(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new UserError(`${where}: not valid JSON: ${(err as Error).message}`);
  }
}

/** The version first, so a log of another version says so rather than naming some field it lacks. */
function checkHeader(value: unknown, where: string): ReadHeader {
  const version = (value as { version?: unknown } | null)?.version;
  if (!READ_VERSIONS.includes(version as 2))
    throw new UserError(`${where}: log schema version ${JSON.stringify(version)}: this reads versions ${READ_VERSIONS.join(' and ')}`);
  return check(HeaderSchema, value, where);
}

/** Each sample checked on its own: one that fails becomes a `BadSample` naming its id and epoch. */
function readSamples(items: { value: unknown; where: string }[]): Pick<ReadLog, 'samples' | 'bad'> {
  const samples: ReadSample[] = [];
  const bad: BadSample[] = [];
  for (const { value, where } of items) {
    const raw = (value ?? {}) as { id?: unknown; epoch?: unknown };
    const id = String(raw.id ?? '?');
    const epoch = String(raw.epoch ?? '?');
    try {
      samples.push(check(SampleSchema, value, `${where} (sample ${id}, epoch ${epoch})`));
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      bad.push({ id, epoch, message: err.message });
    }
  }
  return { samples, bad };
}

export function readInspectLog(path: string): ReadLog {
  if (extname(path).toLowerCase() === '.json') {
    const doc = check(
      z.looseObject({ samples: z.array(z.unknown()).nullish(), reductions: z.array(z.unknown()).nullish() }),
      json(readFileSync(path, 'utf8'), path),
      path,
    );
    const { samples = [], reductions = [], ...header } = doc;
    return {
      header: checkHeader(header, path),
      ...readSamples((samples ?? []).map((value, i) => ({ value, where: `${path} samples[${i}]` }))),
      summaries: [],
      reductions: check(ReductionsSchema, reductions ?? [], `${path} reductions`),
      entries: [],
    };
  }
  let zip: Record<string, Uint8Array>;
  try {
    zip = unzipSync(readFileSync(path));
  } catch (err) {
    throw new UserError(`${path}: not a zip (an .eval log is one): ${(err as Error).message}`);
  }
  const entry = (name: string) => {
    const bytes = zip[name];
    if (!bytes) throw new UserError(`${path}: no ${name} in the log`);
    return json(strFromU8(bytes), `${path} ${name}`);
  };
  const names = Object.keys(zip);
  const header = checkHeader(entry('header.json'), `${path} header.json`);
  const sampleEntry = (n: string): unknown => {
    try {
      return entry(n);
    } catch (err) {
      // Unreadable JSON is a bad sample like any other: its id and epoch come from the entry's name.
      const m = /^samples\/(.*)_epoch_(\d+)\.json$/.exec(n);
      return { id: m?.[1] ?? n, epoch: m?.[2] ?? '?', unreadable: (err as Error).message };
    }
  };
  return {
    header,
    ...readSamples(names.filter((n) => n.startsWith('samples/')).map((n) => ({ value: sampleEntry(n), where: `${path} ${n}` }))),
    summaries: check(SummariesSchema, entry('summaries.json'), `${path} summaries.json`),
    reductions: zip['reductions.json'] ? check(ReductionsSchema, entry('reductions.json'), `${path} reductions.json`) : [],
    entries: names,
  };
}
