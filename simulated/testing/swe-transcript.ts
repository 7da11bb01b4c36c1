import type { Policy } from '../policy.js';
import type { ChatMessage, Generation, GenerateOptions, ModelClient, ToolSpec } from '../../core/model.js';

/**
 * A SWE-style agent conversation of a fixed number of tool-calling turns, for measuring what a long sample costs: the
 * policy (served by the local model server) asks for one bash command a turn, and `runSweTranscript` answers each
 * with output of the size and shape such commands print on a mid-sized Python repository (listings, whole modules,
 * greps, failing pytest runs, diffs). Everything is generated, deterministic, and resent every turn as an agent does.
 */

export const SWE_TOOLS: ToolSpec[] = [
  {
    name: 'bash',
    description:
      'Run a bash command in the repository at /testbed as the agent user and return its output (stdout and stderr, ' +
      'head and tail kept when long). Each call starts a fresh shell: directory changes and variables do not persist. ' +
      'Use it to read files, search the code, run the tests and edit files with sed, cat <<EOF or python.',
    parameters: {
      type: 'object',
      properties: { command: { type: 'string', description: 'The command to run.' } },
      required: ['command'],
    },
  },
  {
    name: 'submit',
    description: 'Submit the repository as it is now for grading. Call it once the issue is resolved and the tests pass.',
    parameters: { type: 'object', properties: {} },
  },
];

const SYSTEM = [
  'You are a helpful assistant that can interact with a computer to solve software engineering tasks.',
  'You work in a repository checked out at /testbed. Each turn, give a short THOUGHT explaining your reasoning and',
  'call exactly one tool. Commands run as an unprivileged user with a time limit; long output keeps its head and tail.',
  '',
  'Recommended workflow:',
  '1. Read the issue and find the code it concerns: list the repository, grep for the names it mentions.',
  '2. Write a script that reproduces the issue and run it.',
  '3. Edit the source code to resolve the issue. Do not modify the tests: they define the expected behaviour.',
  '4. Run the reproduction script and the relevant tests again to confirm the fix.',
  '5. Think about edge cases and make sure your fix handles them.',
  '6. Submit when the tests pass.',
  '',
  'Important rules: never use interactive commands (vi, less, python without a script); prefer small, verifiable',
  'steps; when a command fails, read the error before trying again; keep your changes minimal and in the style of',
  'the surrounding code.',
].join('\n');

const ISSUE = [
  'Resolve the issue according to its description. Grading runs: python -m pytest tests/test_render.py tests/test_widths.py',
  '',
  '<issue>',
  'Column widths are wrong when a cell holds wide (East Asian) characters',
  '',
  'When a table contains CJK text, `render_table` computes each column width from `len(cell)`, so a column whose',
  'widest cell is "数据表" is padded to 3 columns although the text takes 6 on a terminal. Rows then come out',
  'misaligned:',
  '',
  '    >>> print(render_table([["name", "value"], ["数据表", "1"], ["abc", "22"]]))',
  '    name | value',
  '    数据表 | 1',
  '    abc  | 22',
  '',
  'Expected: widths measured in terminal cells (wcwidth), so that every separator lines up. The same problem shows',
  'in `wrap_cell` and in `pad_right`, which both assume one character is one cell.',
  '</issue>',
].join('\n');

/** A Python module of `functions` functions, as `cat` would print it. */
function pythonModule(name: string, functions: number, seed: number): string {
  const lines = [`"""${name}: helpers for laying out text tables."""`, '', 'from __future__ import annotations', '', 'import re', ''];
  for (let f = 0; f < functions; f++) {
    const fn = `${['pad', 'wrap', 'measure', 'align', 'split', 'join', 'render', 'clip'][(f + seed) % 8]}_${['cell', 'row', 'column', 'header', 'text'][(f * 3 + seed) % 5]}${f}`;
    lines.push(
      '',
      `def ${fn}(value: str, width: int, *, fill: str = " ") -> str:`,
      `    """Return value laid out in width cells (variant ${f} of module ${name}).`,
      '',
      '    Raises ValueError when width is negative.',
      '    """',
      '    if width < 0:',
      `        raise ValueError(f"width must be >= 0, got {width}")`,
      '    text = re.sub(r"\\s+", " ", value).strip()',
      '    if len(text) >= width:',
      '        return text[:width]',
      `    return text + fill * (width - len(text))  # ${seed}-${f}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function listing(seed: number): string {
  const files = ['README.rst', 'setup.cfg', 'pyproject.toml', 'tox.ini', 'src', 'tests', 'docs', 'CHANGES.rst', 'LICENSE', '.github'];
  return `total ${40 + seed}\n${files.map((f, i) => `-rw-r--r-- 1 agent agent ${1000 + i * 317 + seed} Jan  3 12:0${i % 10} ${f}`).join('\n')}\n`;
}

function grepHits(term: string, hits: number): string {
  return Array.from(
    { length: hits },
    (_, i) => `src/tablefmt/${['core', 'render', 'widths', 'wrap'][i % 4]}.py:${12 + i * 7}:    ${term}(cell, width=widths[${i % 5}])`,
  ).join('\n');
}

function pytestRun(failures: number, passed: number): string {
  const out = [
    '============================= test session starts ==============================',
    'platform linux -- Python 3.11.9, pytest-8.3.3',
    'rootdir: /testbed',
    'collected 48 items',
    '',
  ];
  out.push(`tests/test_render.py ${'.'.repeat(passed)}${'F'.repeat(failures)}`);
  for (let f = 0; f < failures; f++) {
    out.push(
      '',
      `___________________________ test_cjk_alignment_${f} ____________________________`,
      '',
      `    def test_cjk_alignment_${f}():`,
      '        table = [["name", "value"], ["数据表", "1"], ["abc", "22"]]',
      '>       assert render_table(table).splitlines()[1] == "数据表 | 1    "',
      "E       AssertionError: assert '数据表 | 1' == '数据表 | 1    '",
      'E         - 数据表 | 1    ',
      'E         + 数据表 | 1',
      '',
      `tests/test_render.py:${40 + f * 9}: AssertionError`,
    );
  }
  out.push('', `=========================== ${failures} failed, ${passed} passed in 0.${40 + failures}s ===========================`);
  return out.join('\n');
}

function diff(hunks: number): string {
  const out = ['diff --git a/src/tablefmt/widths.py b/src/tablefmt/widths.py', '--- a/src/tablefmt/widths.py', '+++ b/src/tablefmt/widths.py'];
  for (let h = 0; h < hunks; h++) {
    out.push(
      `@@ -${20 + h * 30},6 +${20 + h * 30},7 @@ def measure_cell${h}(value):`,
      '     text = str(value)',
      '-    return len(text)',
      '+    return sum(cell_width(ch) for ch in text)',
      ' ',
    );
  }
  return out.join('\n');
}

/** One turn: what the agent says, the command it runs, and what the command prints. */
interface Step {
  thought: string;
  command: string;
  output: string;
}

/** The script of a `turns`-turn sample: explore, reproduce, edit, test, and go round again, then submit. */
export function sweSteps(turns: number): Step[] {
  const cycle = (i: number): Step => {
    const round = Math.floor(i / 6);
    switch (i % 6) {
      case 0:
        return {
          thought: 'Let me see how the repository is laid out.',
          command: `ls -la /testbed/src/tablefmt${round ? `/${round}` : ''}`,
          output: listing(i),
        };
      case 1:
        return {
          thought: 'I will read the module that measures widths.',
          command: `cat src/tablefmt/widths${round}.py`,
          output: pythonModule(`widths${round}`, 24, i),
        };
      case 2:
        return {
          thought: 'Where else is the width computed with len()?',
          command: 'grep -rn "pad_right\\|len(cell)" src/',
          output: grepHits('pad_right', 30),
        };
      case 3:
        return {
          thought: 'Let me run the failing tests to see the exact assertion.',
          command: 'python -m pytest tests/test_render.py -x -q',
          output: pytestRun(3, 20 + round),
        };
      case 4:
        return {
          thought: 'I will measure cells with unicodedata.east_asian_width instead of len().',
          command: `sed -i 's/return len(text)/return sum(cell_width(ch) for ch in text)/' src/tablefmt/widths${round}.py && git diff`,
          output: diff(6 + round),
        };
      default:
        return {
          thought: 'Now the renderer, which pads with the old width.',
          command: `sed -n 1,200p src/tablefmt/render${round}.py`,
          output: pythonModule(`render${round}`, 16, i),
        };
    }
  };
  return Array.from({ length: turns }, (_, i) => cycle(i));
}

// The rest of a THOUGHT paragraph, so a turn's output is the hundred-odd tokens an agent's visible reasoning takes.
const REASONING =
  'The issue says widths are measured with len(), which counts code points, while a terminal gives East Asian wide ' +
  'characters two cells. Every place that pads or wraps a cell has to use the same measure, or the separators drift ' +
  'again; I keep the change small, in the style of the module, and check it against the failing tests before going on.';

/** The policy behind a transcript: turn k (counted by the tool results it was shown) runs step k's command. */
export function sweTranscriptPolicy(turns: number): Policy {
  const steps = sweSteps(turns);
  return {
    name: 'swe-transcript',
    next(messages) {
      const done = messages.filter((m) => m.role === 'tool').length;
      const step = steps[done];
      if (!step) return { text: 'The tests pass now; submitting.', toolCalls: [{ name: 'submit', arguments: '{}' }] };
      return { text: `THOUGHT: ${step.thought} ${REASONING}`, toolCalls: [{ name: 'bash', arguments: JSON.stringify({ command: step.command }) }] };
    },
  };
}

/**
 * Runs `turns` model turns on `client` (whose server session is driven by `sweTranscriptPolicy(turns)`), answering
 * every call with its step's output, the whole conversation resent each turn. Returns each turn's generation.
 */
export async function runSweTranscript(client: ModelClient, turns: number, options: GenerateOptions = {}): Promise<Generation[]> {
  const steps = sweSteps(turns);
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: ISSUE },
  ];
  const generations: Generation[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const generation = await client.generate(messages, SWE_TOOLS, options);
    generations.push(generation);
    messages.push({ role: 'assistant', content: generation.text, toolCalls: generation.toolCalls });
    for (const call of generation.toolCalls) {
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: steps[turn]?.output ?? 'submitted' });
    }
  }
  return generations;
}
