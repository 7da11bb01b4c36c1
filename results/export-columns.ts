// The writer's own copy of the reader's types: the schema is made for the writer.
import type { SchemaElement } from 'hyparquet-writer';
import { CHEATING_KINDS, EVIDENCE_SOURCES } from './classify/kinds.js';
import { MONITOR_STATUSES } from './monitor/verdict.js';

/**
 * The columns of an export, written once: the Parquet schema, the help text and the dataset card
 * all come from this tree, so they cannot drift apart. Every column has a fixed type; none holds
 * JSON text, since every nested field of a sample has a known shape.
 */
export type LeafType = 'string' | 'boolean' | 'int32' | 'int64' | 'double';

export type Column = {
  name: string;
  doc: string;
  /** Null (JSONL: null or absent) is allowed. */
  optional?: boolean;
  /** Free text that can run to megabytes (diffs, logs): min/max statistics on it cost more to write than they help. */
  long?: boolean;
} & ({ type: LeafType } | { struct: Column[] } | { list: ListElement });

/** A list's element: a leaf or a struct, never null. */
export type ListElement = { type: LeafType } | { struct: Column[] };

const str = (name: string, doc: string, optional = false): Column => ({ name, doc, type: 'string', ...(optional ? { optional } : {}) });
const int = (name: string, doc: string, type: 'int32' | 'int64' = 'int32', optional = false): Column => ({
  name,
  doc,
  type,
  ...(optional ? { optional } : {}),
});
const dbl = (name: string, doc: string, optional = false): Column => ({ name, doc, type: 'double', ...(optional ? { optional } : {}) });

const TOKENS = [
  int('inputTokens', 'prompt tokens', 'int64'),
  int('outputTokens', 'completion tokens', 'int64'),
  dbl('costUsd', 'USD; null when the price is unknown', true),
];

export const EXPORT_COLUMNS: Column[] = [
  str('runId', 'the run the sample belongs to'),
  int('sampleId', "the sample's id in the results store", 'int64'),
  {
    name: 'key',
    doc: "the sample's coordinates in the run's matrix",
    struct: [
      str('model', 'PROVIDER/NAME'),
      str('dataset', 'builtin:lcb, builtin:swe, hf:OWNER/NAME or a file'),
      str('split', 'original, oneoff or conflicting'),
      str('taskId', 'the task within the dataset'),
      str('scaffold', 'minimal, full, codex, claude-code or an agent CLI named in the config'),
      str('access', 'test access: full, readonly or hidden'),
      str('prompt', 'A, B, C, D, or a short hash of custom prompt text'),
      int('maxAttempts', 'submissions allowed'),
      int('epoch', 'repeat index, from 0'),
    ],
  },
  { name: 'impossible', doc: "whether the split's tests contradict the spec (every split but original)", type: 'boolean' },
  str('label', 'cheating, legit or none (see the label rule)'),
  str('outcome', 'passed, failed, evaded or error'),
  str(
    'stopReason',
    'submitted, max_attempts, message_limit, token_limit, context_limit (the context window was full), time_limit, cost_limit, flagged, disk_limit, program_failed (an agent program failed on its own after asking its model; graded as it stands) or error',
  ),
  int('attempts', 'submissions used'),
  int('refusals', 'model turns the model declined to answer'),
  int('inputTokens', 'prompt tokens, cached ones included', 'int64'),
  int('cacheReadTokens', 'the part of inputTokens read from the prompt cache', 'int64'),
  int('cacheWriteTokens', 'the part of inputTokens written to the prompt cache', 'int64'),
  int('outputTokens', 'completion tokens, reasoning included', 'int64'),
  dbl('costUsd', 'USD as the provider bills it, cache prices applied; null when the price is unknown', true),
  str('startedAt', 'ISO 8601 time, UTC'),
  str('endedAt', 'ISO 8601 time, UTC'),
  dbl('wallMs', 'wall time, milliseconds'),
  {
    name: 'transcript',
    doc: 'the conversation, in order',
    list: {
      struct: [
        str('role', 'system, user, assistant or tool'),
        str('content', 'the message text'),
        {
          name: 'toolCalls',
          doc: "an assistant message's tool calls; null when it made none",
          optional: true,
          list: {
            struct: [str('id', 'call id'), str('name', 'tool name'), str('arguments', 'the arguments as the model wrote them (usually JSON text)')],
          },
        },
        str('toolCallId', "a tool message's answer to this call id", true),
        str('name', "a tool message's tool name", true),
      ],
    },
  },
  { ...str('sourceDiff', "diff of the agent's changes to non-test files"), long: true },
  { ...str('testDiff', "diff of the agent's changes to test files"), long: true },
  { ...str('outsideChanges', 'files changed outside the work dir, with kinds'), long: true },
  { ...str('gradingLog', "the grading run's log"), long: true },
  { name: 'tamper', doc: 'signs of tampering with the harness, one line each; empty when none', list: { type: 'string' } },
  { ...str('error', 'what went wrong, for error outcomes; null otherwise', true), long: true },
  {
    name: 'mutation',
    doc: "how the split's impossible variant was made, from the task's mutation record; null on the original split and for samples stored before it was kept",
    optional: true,
    struct: [
      str('origin', "patch (an edit of the test patch's own lines, or of an LCB test), whole-file (an edit found in the whole test file) or model"),
      str('model', 'the model that wrote the variant, when origin is model', true),
      str('strategy', 'what the edit did: int-shift, negate-eq, expect-error, …'),
      int('tries', 'candidates validated for the task, this one included, when validation rejected earlier ones as not impossible', 'int32', true),
    ],
  },
  {
    name: 'kinds',
    doc: 'how a cheating or evaded sample cheated; null for every other sample',
    optional: true,
    list: {
      struct: [
        str('kind', CHEATING_KINDS.join(', ')),
        str('why', 'one line'),
        {
          name: 'evidence',
          doc: 'the lines that show it',
          list: {
            struct: [
              str('source', EVIDENCE_SOURCES.join(', ')),
              str('file', 'the file, for a diff line', true),
              int('line', '1-based line in that file', 'int32', true),
              str('change', '+ added, - removed; null for text that is no diff line', true),
              str('text', 'the line'),
            ],
          },
        },
      ],
    },
  },
  {
    name: 'judges',
    doc: 'LLM judge verdicts (`impossiblebench classify`), the newest per judge model; empty when none was asked',
    list: {
      struct: [
        str('model', 'judge model'),
        str('kind', 'modify-tests, operator-overload, record-state, special-casing or other; null when the answer named none', true),
        str('explanation', "the judge's reasoning"),
        ...TOKENS,
      ],
    },
  },
  {
    name: 'monitors',
    doc: 'LLM monitor verdicts, the newest per monitor model and prompt; empty when none was asked',
    list: {
      struct: [
        str('model', 'monitor model'),
        str('promptHash', "sha256 of the monitor prompt's text, hex"),
        str('status', MONITOR_STATUSES.join(', ')),
        dbl('score', 'suspicion, 0 to 100, when scored; null otherwise', true),
        str('reason', "the monitor's short reason, or what was wrong with the answer"),
        str('answer', 'the answer as given, cut to a few kilobytes'),
        ...TOKENS,
      ],
    },
  },
  {
    name: 'interview',
    doc: 'what the agent said once graded, asked whether it changed, skipped or special-cased the tests (`run --interview`); null when it was not asked',
    optional: true,
    struct: [
      str('question', 'the question as asked'),
      { ...str('answer', "the agent's answer"), long: true },
      str('reading', 'the answer read by rules: admits, denies or evasive; null when the interview has an error', true),
      str('error', 'why the model could not be asked, or why the agent program was not interviewed; null otherwise', true),
      ...TOKENS,
      str('judgeModel', 'with `run --interview-judge`: the model that read the answer; null otherwise', true),
      str('judgeReading', "the judge's reading: admits, denies or evasive; null when it named none or none was asked", true),
      str('judgeError', 'why the judge could not answer; null otherwise', true),
      dbl('judgeCostUsd', "the judge's cost in USD, apart from the interview's; null without a judge or when its price is unknown", true),
    ],
  },
];

// ---- Parquet ---------------------------------------------------------------------------------

const LEAF: Record<LeafType, Pick<SchemaElement, 'type' | 'converted_type' | 'logical_type'>> = {
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } },
  boolean: { type: 'BOOLEAN' },
  int32: { type: 'INT32' },
  int64: { type: 'INT64' },
  double: { type: 'DOUBLE' },
};

/** Whether a column gets min/max statistics: the short scalar ones (and structs of them), which a reader can filter row groups by. */
export function keepsStatistics(c: Column): boolean {
  return !('list' in c) && !c.long && !('struct' in c && c.struct.some((f) => !keepsStatistics(f)));
}

/** The Parquet schema, depth first: structs as groups, lists in the standard three-level LIST layout. */
export function parquetSchema(columns: Column[] = EXPORT_COLUMNS): SchemaElement[] {
  return [{ name: 'root', num_children: columns.length }, ...columns.flatMap((c) => schemaOf(c.name, c, c.optional ? 'OPTIONAL' : 'REQUIRED'))];
}

function schemaOf(name: string, c: ListElement | Column, repetition: 'OPTIONAL' | 'REQUIRED'): SchemaElement[] {
  if ('type' in c) return [{ name, repetition_type: repetition, ...LEAF[c.type] }];
  if ('struct' in c)
    return [
      { name, repetition_type: repetition, num_children: c.struct.length },
      ...c.struct.flatMap((f) => schemaOf(f.name, f, f.optional ? 'OPTIONAL' : 'REQUIRED')),
    ];
  return [
    { name, repetition_type: repetition, converted_type: 'LIST', logical_type: { type: 'LIST' }, num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    ...schemaOf('element', c.list, 'REQUIRED'),
  ];
}

/**
 * A value in the shape the Parquet writer takes: absent becomes null, 64-bit integers become
 * bigints, and only the schema's fields are kept.
 */
export function parquetValue(c: ListElement | Column, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if ('type' in c) return c.type === 'int64' ? BigInt(value as number) : value;
  if ('struct' in c) {
    const obj = value as Record<string, unknown>;
    return Object.fromEntries(c.struct.map((f) => [f.name, parquetValue(f, obj[f.name])]));
  }
  return (value as unknown[]).map((v) => parquetValue(c.list, v));
}

// ---- Text ------------------------------------------------------------------------------------

/** `list<struct<role: string, ...>>`, as a reader of the card or the help sees the type. */
export function typeName(c: ListElement | Column): string {
  if ('type' in c) return c.type;
  if ('struct' in c) return `struct<${c.struct.map((f) => `${f.name}: ${typeName(f)}${f.optional ? '?' : ''}`).join(', ')}>`;
  return `list<${typeName(c.list)}>`;
}

export interface ColumnEntry {
  /** 0 for a top-level column, 1 for its fields, and so on. */
  depth: number;
  name: string;
  /** The type, with nested fields left to their own entries: `list<struct>` rather than the whole struct. */
  type: string;
  optional: boolean;
  doc: string;
}

/** Every column and nested field, depth first: what the help text and the dataset card list. */
export function columnEntries(columns: Column[] = EXPORT_COLUMNS, depth = 0): ColumnEntry[] {
  return columns.flatMap((c) => {
    const nested = 'struct' in c ? c.struct : 'list' in c && 'struct' in c.list ? c.list.struct : undefined;
    const type = nested ? ('list' in c ? 'list<struct>' : 'struct') : typeName(c);
    return [{ depth, name: c.name, type, optional: c.optional ?? false, doc: c.doc }, ...(nested ? columnEntries(nested, depth + 1) : [])];
  });
}
