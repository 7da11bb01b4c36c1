import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shippedPath } from '../core/shipped.js';
import { promptSha256, readUserTextFile } from '../core/text-file.js';
import { UserError } from '../core/errors.js';

/**
 * Every text the agent loops send a model (system prompts, the instruction wordings A-D, the abort option, the
 * feedback messages and the tool descriptions) is a template: a text file shipped in scaffolds/templates/, named
 * `NAME.txt`, that a user can read (`impossiblebench templates show NAME`) and replace by file (`--template NAME=FILE`,
 * or `templates:` in a config file). `{{name}}` marks where the loop fills in a value; each template declares which it
 * has and which of them it must keep.
 */
interface TemplateSpec {
  /** What the text is, for the listing. */
  what: string;
  /** Placeholders a replacement must keep, with what each holds. */
  required?: Readonly<Record<string, string>>;
  /** Placeholders a replacement may use or leave out. */
  optional?: Readonly<Record<string, string>>;
}

const FEEDBACK = { feedback: 'what grading says of the failed submission' } as const;
const ATTEMPTS = { attempt: 'the submission just graded, from 1', max: 'the submissions allowed' } as const;
const TIMEOUT = { timeout: 'the per-call time limit, seconds' } as const;

export const TEMPLATE_SPECS = {
  'system.minimal': { what: 'system prompt of the minimal scaffold on LiveCodeBench-style tasks (no tools)' },
  'system.full': { what: 'system prompt of the full scaffold (tools)' },
  'system.bash': {
    what: 'system prompt of the minimal scaffold on SWE-style tasks (one bash command per reply)',
    optional: { sentinel: 'the line whose echo submits' },
  },
  'instructions.A': { what: 'instruction wording A (loosest): the start of the first user message' },
  'instructions.B': { what: 'instruction wording B' },
  'instructions.C': { what: 'instruction wording C' },
  'instructions.D': { what: 'instruction wording D (strictest, the default)' },
  'abort.minimal': {
    what: 'the abort option, appended to the instructions with --allow-flag (minimal scaffold)',
    optional: { sentinel: 'the line that flags the task' },
  },
  'abort.full': {
    what: 'the abort option, appended to the instructions with --allow-flag (full scaffold)',
    optional: { tool: 'the name of the flag tool' },
  },
  'abort.cli': {
    what: 'the abort option, appended to the instructions with --allow-flag (agent programs: codex, claude-code, ...)',
    optional: { sentinel: 'the line that flags the task' },
  },
  'cli.done': {
    what: 'how an agent program (codex, claude-code, ...) is told to finish: the last line of its task',
    optional: { workdir: 'where the work is graded' },
  },
  'feedback.minimal.failed': {
    what: 'answer to a failed submission (minimal scaffold, LiveCodeBench-style)',
    required: FEEDBACK,
    optional: { task: 'the task message again' },
  },
  'feedback.full.failed': { what: 'result of a failed submit call while attempts remain (full scaffold)', required: FEEDBACK, optional: ATTEMPTS },
  'feedback.full.last': {
    what: 'result of the failed submit call that used the last attempt (full scaffold)',
    required: FEEDBACK,
    optional: ATTEMPTS,
  },
  'feedback.full.nudge': { what: 'answer to a reply without a tool call (full scaffold)', optional: { tool: 'the name of the submit tool' } },
  'feedback.bash.failed': { what: 'answer to a failed submission (minimal scaffold, SWE-style)', required: FEEDBACK, optional: ATTEMPTS },
  'feedback.bash.format': {
    what: 'answer to a reply without exactly one bash block (minimal scaffold, SWE-style)',
    optional: { found: 'what the reply had instead ("no ```bash code block", "2 ```bash code blocks")', sentinel: 'the line whose echo submits' },
  },
  'feedback.bash.observation': {
    what: "a command's output as it is sent back (minimal scaffold, SWE-style)",
    required: { output: "the command's output" },
  },
  'budget.warning': {
    what: 'with --budget-warning: appended to each tool result (and command output of the minimal SWE loop), what the sample has used of its limits',
    required: { used: 'messages so far, this one included', max: 'the message limit' },
    optional: {
      left: 'messages left',
      percent: 'the share of the message limit used, e.g. 42%',
      tokens: 'a sentence on tokens used and left, when --max-tokens is set; else empty',
      cost: 'a sentence on dollars spent and left, when --max-cost is set; else empty',
    },
  },
  'interview.question': { what: 'with --interview: the one user turn after grading that asks whether the agent worked around the tests' },
  'interview.judge': {
    what: "with --interview-judge: what the judge model is asked of an interview answer; its reply's last line must be READING: admits|denies|evasive",
    required: { answer: "the agent's answer" },
    optional: { question: 'the interview question the agent was asked' },
  },
  'tool.bash': { what: 'description of the bash tool', optional: TIMEOUT },
  'tool.python': { what: 'description of the python tool', optional: TIMEOUT },
  'tool.text_editor': { what: 'description of the text_editor tool' },
  'tool.think': { what: 'description of the think tool' },
  'tool.submit': { what: 'description of the submit tool' },
  'tool.flag_for_human': { what: 'description of the flag_for_human tool (offered with --allow-flag)' },
} as const satisfies Record<string, TemplateSpec>;

export type TemplateName = keyof typeof TEMPLATE_SPECS;
export const TEMPLATE_NAMES = Object.keys(TEMPLATE_SPECS) as TemplateName[];

type Spec<N extends TemplateName> = (typeof TEMPLATE_SPECS)[N];
type KeysOf<T> = T extends Readonly<Record<string, string>> ? keyof T & string : never;
/** The values a template's placeholders are filled with: every one it declares, whether the text uses it or not. */
export type TemplateVars<N extends TemplateName> = Record<
  KeysOf<Spec<N> extends { required: infer R } ? R : never> | KeysOf<Spec<N> extends { optional: infer O } ? O : never>,
  string | number
>;

/** The text of every template a run uses: the shipped ones with the user's replacements over them. */
export type Templates = Readonly<Record<TemplateName, string>>;

/** A replacement as a run records it: where it was read, the text, and its sha256 (which tells runs apart). */
export interface TemplateOverride {
  file: string;
  sha256: string;
  text: string;
}

export function isTemplateName(name: string): name is TemplateName {
  return Object.hasOwn(TEMPLATE_SPECS, name);
}

/** The folder of the shipped templates. */
export function shippedTemplateDir(): string {
  return shippedPath(import.meta.url, 'templates');
}

export function templateFile(name: TemplateName): string {
  return join(shippedTemplateDir(), `${name}.txt`);
}

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/** A file's text as a template: a file ends with a newline, the text it holds does not (so a file may end as files do). */
function fromFile(content: string): string {
  return content.replace(/\r?\n$/, '');
}

function placeholdersOf(name: TemplateName): { required: string[]; all: string[] } {
  const spec: TemplateSpec = TEMPLATE_SPECS[name];
  const required = Object.keys(spec.required ?? {});
  return { required, all: [...required, ...Object.keys(spec.optional ?? {})] };
}

/** How a template's placeholders read in messages and the listing: `{{feedback}} (required), {{attempt}}`. */
export function describePlaceholders(name: TemplateName): string {
  const { required, all } = placeholdersOf(name);
  return all.length ? all.map((p) => `{{${p}}}${required.includes(p) ? ' (required)' : ''}`).join(', ') : 'none';
}

/** Checks a template's text against what its name declares: every required placeholder kept, no unknown one used. */
export function checkTemplate(name: TemplateName, text: string, file: string): void {
  const { required, all } = placeholdersOf(name);
  const used = new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!));
  const fix = `start from the shipped one: impossiblebench templates show ${name}`;
  const missing = required.filter((p) => !used.has(p));
  if (missing.length) {
    const spec: TemplateSpec = TEMPLATE_SPECS[name];
    const why = missing.map((p) => `{{${p}}} (${spec.required?.[p]})`).join(' and ');
    throw new UserError(`template ${name} (file ${file}) lacks ${why}`, fix);
  }
  const unknown = [...used].filter((p) => !all.includes(p));
  if (unknown.length) {
    throw new UserError(
      `template ${name} (file ${file}) uses ${unknown.map((p) => `{{${p}}}`).join(', ')}, which it does not have; its placeholders: ${describePlaceholders(name)}`,
      fix,
    );
  }
}

/** A template name as a user wrote it; an unknown one is named with every known name. */
export function templateName(name: string, where: string): TemplateName {
  if (isTemplateName(name)) return name;
  throw new UserError(
    `${where}: unknown template "${name}"; known: ${TEMPLATE_NAMES.join(', ')}`,
    'impossiblebench templates lists them with what each holds',
  );
}

let shipped: Templates | undefined;

/** The shipped templates, read (and checked) once. */
export function shippedTemplates(): Templates {
  if (shipped) return shipped;
  const texts = {} as Record<TemplateName, string>;
  for (const name of TEMPLATE_NAMES) {
    const file = templateFile(name);
    if (!existsSync(file)) throw new UserError(`template ${name}: the shipped file ${file} is missing`, 'reinstall the package');
    texts[name] = fromFile(readFileSync(file, 'utf8'));
    checkTemplate(name, texts[name], file);
  }
  return (shipped = texts);
}

/** Reads a user's replacement of a template from its file, checked against what the template declares. */
export function readTemplateOverride(name: string, file: string, where: string): TemplateOverride {
  const known = templateName(name, where);
  const read = readUserTextFile(file, `template ${known}:`);
  const text = fromFile(read.text);
  checkTemplate(known, text, file);
  return { file, text, sha256: promptSha256(text) };
}

/** The shipped templates with replacements over them (each checked again: a stored run's text is input too). */
export function withOverrides(overrides: Readonly<Record<string, TemplateOverride>>, where = 'templates'): Templates {
  const texts: Record<TemplateName, string> = { ...shippedTemplates() };
  for (const [name, o] of Object.entries(overrides)) {
    const known = templateName(name, where);
    checkTemplate(known, o.text, o.file);
    texts[known] = o.text;
  }
  return texts;
}

/** A template's text with its placeholders filled. */
export function render<N extends TemplateName>(templates: Templates, name: N, vars: TemplateVars<N>): string {
  const values = vars as Record<string, string | number>;
  return templates[name].replace(PLACEHOLDER, (whole, key: string) => (Object.hasOwn(values, key) ? String(values[key]) : whole));
}
