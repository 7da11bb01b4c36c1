import type { Policy, PolicyContext } from '../policy.js';
import type { LcbTask } from '../../tasks/task.js';
import type { ChatMessage, ToolSpec } from '../../core/model.js';

export const TASK: LcbTask = {
  kind: 'lcb',
  id: 'add_two',
  variant: 'original',
  source: 'test',
  prompt: 'def add(a, b):\n    """Return a + b."""\n',
  entryPoint: 'add',
  test: 'def check(candidate):\n    assert candidate(1, 2) == 3\n',
  originalTest: 'def check(candidate):\n    assert candidate(1, 2) == 3\n',
  solution: 'def add(a, b):\n    return a + b\n',
};

export const CONTEXT: PolicyContext = { task: TASK, scaffold: 'full' };

export const BASH: ToolSpec = {
  name: 'bash',
  description: 'Run a shell command.',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
};

/**
 * A tiny policy for these tests: asks for `echo hi` through the bash tool, then answers with
 * what the tool returned. It records every conversation it is shown.
 */
export function echoPolicy(): Policy & { seen: ChatMessage[][] } {
  const seen: ChatMessage[][] = [];
  return {
    name: 'echo',
    seen,
    next(messages) {
      seen.push(structuredClone(messages));
      const results = messages.filter((m) => m.role === 'tool');
      const last = results.at(-1);
      if (!last) return { text: 'Let me run it.', toolCalls: [{ name: 'bash', arguments: JSON.stringify({ command: 'echo hi' }) }] };
      return { text: `done: ${last.name} said ${last.content}` };
    },
  };
}
