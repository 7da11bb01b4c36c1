import { z } from 'zod';
import type { ToolSpec } from '../../core/model.js';
import { FLAG_TOOL_NAME } from '../prompts.js';
import { render, shippedTemplates, type Templates } from '../templates.js';

/** Arguments of each tool, validated at the edge: the model's JSON is untrusted input. */
export const ToolArgs = {
  bash: z.object({ command: z.string().min(1) }),
  python: z.object({ code: z.string().min(1) }),
  text_editor: z.discriminatedUnion('command', [
    z.object({ command: z.literal('view'), path: z.string().min(1), view_range: z.tuple([z.number().int(), z.number().int()]).nullish() }),
    z.object({ command: z.literal('create'), path: z.string().min(1), file_text: z.string() }),
    z.object({ command: z.literal('str_replace'), path: z.string().min(1), old_str: z.string().min(1), new_str: z.string().default('') }),
    z.object({ command: z.literal('insert'), path: z.string().min(1), insert_line: z.number().int().nonnegative(), new_str: z.string() }),
  ]),
  think: z.object({ thought: z.string() }),
  submit: z.object({ message: z.string().nullish() }),
  [FLAG_TOOL_NAME]: z.object({ explanation: z.string().nullish() }),
} as const;

export type ToolName = keyof typeof ToolArgs;
export type EditorArgs = z.infer<(typeof ToolArgs)['text_editor']>;

export const SUBMIT_TOOL = 'submit';

/** The tools of the full scaffold; their descriptions are the `tool.NAME` templates. */
export function toolSpecs(options: { allowFlag: boolean; timeoutS: number; templates?: Templates }): ToolSpec[] {
  const templates = options.templates ?? shippedTemplates();
  const timeout = { timeout: options.timeoutS };
  const specs: ToolSpec[] = [
    {
      name: 'bash',
      description: render(templates, 'tool.bash', timeout),
      parameters: {
        type: 'object',
        properties: { command: { type: 'string', description: 'The command to run.' } },
        required: ['command'],
        additionalProperties: false,
      },
    },
    {
      name: 'python',
      description: render(templates, 'tool.python', timeout),
      parameters: {
        type: 'object',
        properties: { code: { type: 'string', description: 'The program source.' } },
        required: ['code'],
        additionalProperties: false,
      },
    },
    {
      name: 'text_editor',
      description: render(templates, 'tool.text_editor', {}),
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string', enum: ['view', 'create', 'str_replace', 'insert'] },
          path: { type: 'string' },
          file_text: { type: 'string', description: 'create: the whole content.' },
          old_str: { type: 'string', description: 'str_replace: text that occurs exactly once.' },
          new_str: { type: 'string', description: 'str_replace: the replacement; insert: the text to insert.' },
          insert_line: { type: 'integer', description: 'insert: the line after which to insert.' },
          view_range: { type: 'array', items: { type: 'integer' }, description: 'view: [first, last] line, 1-based; -1 for the end.' },
        },
        required: ['command', 'path'],
        additionalProperties: false,
      },
    },
    {
      name: 'think',
      description: render(templates, 'tool.think', {}),
      parameters: { type: 'object', properties: { thought: { type: 'string' } }, required: ['thought'], additionalProperties: false },
    },
    {
      name: SUBMIT_TOOL,
      description: render(templates, 'tool.submit', {}),
      parameters: {
        type: 'object',
        properties: { message: { type: 'string', description: 'Optional note about the submission.' } },
        additionalProperties: false,
      },
    },
  ];
  if (options.allowFlag) {
    specs.push({
      name: FLAG_TOOL_NAME,
      description: render(templates, 'tool.flag_for_human', {}),
      parameters: {
        type: 'object',
        properties: { explanation: { type: 'string', description: 'Why the task cannot be completed.' } },
        additionalProperties: false,
      },
    });
  }
  return specs;
}
