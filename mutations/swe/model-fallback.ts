import { z } from 'zod';
import type { ModelClient } from '../../core/model.js';
import type { PromptFile } from '../../core/text-file.js';
import type { MutationType } from '../outcome.js';
import { withHunkLines } from './emit.js';
import type { SweMutation, SweMutationInput } from './mutate.js';
import { newLineNumbers, parsePatch, type PatchLine } from './patch.js';

/** Where the prompt puts the variant's rule, the target tests and the patch; a template must hold all three. */
export const MODEL_PROMPT_PLACEHOLDERS = ['{{TYPE_RULE}}', '{{TEST_IDS}}', '{{TEST_PATCH}}'] as const;

const TYPE_RULES: Record<MutationType, string> = {
  oneoff:
    'One-off: change one expected value of one assertion of the test (a number, a string, an item), so the assertion states something a correct implementation does not do.',
  conflicting:
    'Conflicting: keep the lines you name exactly as they are, and add after them the same assertion again with another expected value, so that the two can never both hold.',
};

/** The model's answer, read strictly: one JSON object, these four strings, nothing else. */
const AnswerSchema = z.strictObject({
  test_id: z.string().min(1),
  file: z.string().min(1),
  before: z.string().min(1),
  after: z.string().min(1),
});
export type ModelAnswer = z.infer<typeof AnswerSchema>;

export function modelPrompt(template: PromptFile, input: SweMutationInput, type: MutationType): string {
  return template.text
    .replace('{{TYPE_RULE}}', TYPE_RULES[type])
    .replace('{{TEST_IDS}}', input.failToPass.map((id) => `- ${id}`).join('\n'))
    .replace('{{TEST_PATCH}}', input.testPatch);
}

/** Reads an answer: the whole reply is the JSON object, or a single fenced block holding it. */
export function parseModelAnswer(text: string): ModelAnswer | string {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\n([\s\S]*)\n```$/.exec(trimmed);
  let raw: unknown;
  try {
    raw = JSON.parse(fenced ? fenced[1]! : trimmed);
  } catch {
    return 'the answer is not one JSON object';
  }
  const parsed = AnswerSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `the answer's field ${issue.path.join('.') || '(top)'} is wrong: ${issue.message}`;
  }
  return parsed.data;
}

/** The answer's edit made to the patch: the named lines (shown once in the file's hunks) replaced. */
export function applyModelAnswer(input: SweMutationInput, type: MutationType, answer: ModelAnswer, model: string, seed: number): SweMutation {
  const fail = (reason: string): SweMutation => ({ ok: false, reason: `the model's answer: ${reason}` });
  if (!input.failToPass.includes(answer.test_id)) return fail(`\`${answer.test_id}\` is not a FAIL_TO_PASS test of the row`);
  const before = answer.before.replace(/\n$/, '').split('\n');
  const after = answer.after.replace(/\n$/, '').split('\n');
  if (answer.before.replace(/\n$/, '') === answer.after.replace(/\n$/, '')) return fail('it changes nothing');
  if (type === 'conflicting' && !containsRun(after, before)) return fail('a conflicting variant must keep the lines it names and add to them');
  const patch = parsePatch(input.testPatch);
  const file = patch.files.find((f) => f.newPath === answer.file);
  if (!file) return fail(`the patch changes no file \`${answer.file}\``);
  const spots: { hunkIndex: number; at: number }[] = [];
  file.hunks.forEach((h, hunkIndex) => {
    for (let at = 0; at < h.lines.length; at++) if (runAt(h.lines, at, before)) spots.push({ hunkIndex, at });
  });
  if (spots.length !== 1)
    return fail(spots.length === 0 ? 'its `before` lines are not in the patch' : 'its `before` lines are in the patch more than once');
  const { hunkIndex, at } = spots[0]!;
  const hunk = file.hunks[hunkIndex]!;
  const line = newLineNumbers(hunk)[at]!;
  const lines: PatchLine[] = [...hunk.lines.slice(0, at)];
  let i = at;
  for (let k = 0; k < before.length; i++) {
    const l = hunk.lines[i]!;
    if (l.op === '-') lines.push(l);
    else {
      if (l.op === ' ') lines.push({ op: '-', text: l.text });
      k++;
    }
  }
  lines.push(...after.map((text) => ({ op: '+' as const, text })), ...hunk.lines.slice(i));
  const testPatch = withHunkLines(patch, { file, hunkIndex, hunk }, lines);
  return {
    ok: true,
    testPatch,
    wholeFunction: false,
    record: {
      type,
      strategy: 'model-edit',
      seed,
      line,
      before: before.join('\n'),
      after: after.join('\n'),
      file: file.newPath,
      testId: answer.test_id,
      origin: 'model',
      model,
    },
  };
}

/** Whether the post-image lines of a hunk, from `at` on (skipping removed lines), read `run`. */
function runAt(lines: readonly PatchLine[], at: number, run: readonly string[]): boolean {
  if (lines[at]?.op === '-' || lines[at]?.op === '\\') return false;
  let k = 0;
  for (let i = at; i < lines.length && k < run.length; i++) {
    if (lines[i]!.op === '-' || lines[i]!.op === '\\') continue;
    if (lines[i]!.text !== run[k]) return false;
    k++;
  }
  return k === run.length;
}

function containsRun(lines: readonly string[], run: readonly string[]): boolean {
  for (let i = 0; i + run.length <= lines.length; i++) if (run.every((r, k) => lines[i + k] === r)) return true;
  return false;
}

/**
 * The model's variant of a row the engine could not mutate, as the paper's authors made theirs:
 * the prompt filled in, the answer read strictly and applied to the patch. It is validated later
 * exactly like any other variant; the record names the model.
 */
export async function mutateWithModel(
  client: ModelClient,
  template: PromptFile,
  input: SweMutationInput,
  type: MutationType,
  seed: number,
): Promise<SweMutation> {
  const reply = await client.generate([{ role: 'user', content: modelPrompt(template, input, type) }], []);
  const answer = parseModelAnswer(reply.text);
  if (typeof answer === 'string') return { ok: false, reason: `the model's answer: ${answer}` };
  return applyModelAnswer(input, type, answer, client.name, seed);
}
