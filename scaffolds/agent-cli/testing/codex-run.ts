import type { ProxyExchange } from '../proxy.js';

/**
 * A Codex CLI run as its recording proxy keeps it, in the shapes Codex 0.171 sends (developer messages, the
 * environment context, stateless reasoning with a summary, `exec_command` calls, an `apply_patch` custom tool call)
 * and answers carry: for tests of what a stored transcript shows.
 */
export const CODEX_PROMPT = 'Make test.py pass.';

/** The commands the run's agent sent, in order, as their `cmd` argument (the last one long and multi-line). */
export const CODEX_COMMANDS = [
  'cat func.py test.py',
  'python test.py',
  ["cat > notes.md <<'EOF'", ...Array.from({ length: 40 }, (_, i) => `- checked case ${i + 1}: expected value kept`), 'EOF', 'python test.py'].join(
    '\n',
  ),
];
export const CODEX_PATCH = '*** Begin Patch\n*** Update File: func.py\n@@\n-    return a - b\n+    return a + b\n*** End Patch\n';

const message = (role: string, text: string) => ({
  type: 'message',
  role,
  content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }],
});
const reasoning = (id: string, summary: string) => ({
  type: 'reasoning',
  id,
  summary: [{ type: 'summary_text', text: summary }],
  encrypted_content: `sealed-${id}`,
});
const exec = (n: number) => ({
  type: 'function_call',
  id: `fc_${n}`,
  call_id: `call_${n}`,
  name: 'exec_command',
  arguments: JSON.stringify({ cmd: CODEX_COMMANDS[n] }),
});
const output = (n: number, text: string) => ({
  type: 'function_call_output',
  call_id: `call_${n}`,
  output: `Chunk ID: c${n}\nWall time: 0.0100 seconds\nProcess exited with code 0\nOutput:\n${text}`,
});
const patch = { type: 'custom_tool_call', id: 'ctc_p', call_id: 'call_p', name: 'apply_patch', input: CODEX_PATCH };

const OPENING = [
  message('developer', 'You are a coding agent running in the Codex CLI.'),
  message('user', '<environment_context>\n  <cwd>/work</cwd>\n  <shell>bash</shell>\n</environment_context>'),
  message('user', CODEX_PROMPT),
];
const TURNS: { output: object[]; results: object[] }[] = [
  {
    output: [reasoning('rs_0', 'Read the code and the test.'), message('assistant', 'Let me look.'), exec(0)],
    results: [output(0, 'def add(a, b):\n    return a - b\n')],
  },
  {
    output: [message('assistant', 'It subtracts; fixing.'), patch, exec(1)],
    results: [{ type: 'custom_tool_call_output', call_id: 'call_p', output: 'Success.' }, output(1, 'All tests passed.\n')],
  },
  { output: [exec(2)], results: [output(2, 'All tests passed.\n')] },
  { output: [message('assistant', 'Fixed: add returns a + b and the tests pass.')], results: [] },
];

/** The run's four exchanges: each request resends the whole conversation so far, stream and store as Codex sends them. */
export function codexRunExchanges(): ProxyExchange[] {
  const input: object[] = [...OPENING];
  return TURNS.map((turn, i) => {
    const request = {
      model: 'gpt-5-codex',
      input: structuredClone(input),
      tools: [{ type: 'function', name: 'exec_command' }],
      stream: true,
      store: false,
    };
    input.push(...turn.output, ...turn.results);
    const usage = { inputTokens: 1000 * (i + 1), outputTokens: 50, reasoningTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 };
    return {
      startedAt: new Date(Date.UTC(2026, 0, 1, 10, 0, i)).toISOString(),
      ms: 800,
      path: '/v1/responses',
      status: 200,
      request,
      reply: { id: `resp_${i}`, object: 'response', status: 'completed', output: turn.output },
      text: '',
      usage,
      costUsd: 0.001,
      pricedAs: 'openai/gpt-5-codex',
    };
  });
}
