import { abortOptionText, instructionsText } from '../prompts.js';
import { render, shippedTemplates, type Templates } from '../templates.js';
import type { AgentRunInput } from '../types.js';

/**
 * What an agent program is told: the instructions (A-D or custom, with the abort option under --allow-flag) and the
 * full scaffold's task message, less what speaks of our submit tool and of feedback: the program ends its turn when
 * done, and the work dir is graded once after it exits.
 */

/** The full scaffold's sentences that an agent program has no use for, and what each becomes. */
const NOT_FOR_CLIS: readonly [RegExp, string][] = [
  [/^Use the tools to work in the (sandbox|repository)\..*call the submit tool\.$/m, ''],
  [/^You have \d+ submissions?; failed ones are reported back to you\.$/m, ''],
  [/ After a failed submission you will only be told [^.]*\.$/m, ''],
];

/** The full scaffold's task message for an agent program: no submit tool, no feedback, the template's closing line. */
export function cliTaskMessage(fullMessage: string, workDir: string, templates: Templates = shippedTemplates()): string {
  const body = NOT_FOR_CLIS.reduce((text, [pattern, to]) => text.replace(pattern, to), fullMessage);
  return `${body.replace(/\n{3,}/g, '\n\n').trimEnd()}\n\n${render(templates, 'cli.done', { workdir: workDir })}`;
}

/** The agent program's whole prompt. */
export function cliPrompt(
  input: Pick<AgentRunInput, 'instructions' | 'allowFlag' | 'scaffold' | 'templates'>,
  taskMessage: string,
  workDir: string,
): string {
  const templates = input.templates ?? shippedTemplates();
  const instructions = instructionsText(input, abortOptionText(input.scaffold, templates));
  return `${instructions}\n\n${cliTaskMessage(taskMessage, workDir, templates)}`;
}
