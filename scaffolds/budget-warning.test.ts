import { describe, expect, it } from 'vitest';
import { promptSha256 } from '../core/text-file.js';
import { SWE_SUBMIT_SENTINEL } from './env/swe.js';
import { withOverrides } from './templates.js';
import { bashRoute, call, feedback, runLoopInMemory, sweTask, toolResults } from './testing/loop-sample.js';

/* `--budget-warning` (the published harness's add_budget_warning): what the model is sent after each action. */

const WARNING = /\n\nYou have used (\d+) messages out of (\d+) messages \((\d+)%\)\. Your attempt will be terminated if you exceed this budget\./;

describe('--budget-warning', () => {
  it('appends the counts to each tool result the model is sent, counting the message it is in', async () => {
    const { result, model } = await runLoopInMemory({
      routes: [bashRoute(/^ls$/, () => ({ stdout: 'func.py' }))],
      turns: [call('bash', { command: 'ls' }), call('bash', { command: 'ls' }), call('submit')],
      maxAttempts: 1,
      limits: { maxMessages: 20, budgetWarning: true },
    });
    const results = toolResults(result);
    expect(results).toHaveLength(3);
    // system, user, then per turn an assistant message and its result: the results are messages 4, 6 and 8.
    expect(results.map((r) => WARNING.exec(r)?.slice(1, 4))).toEqual([
      ['4', '20', '20'],
      ['6', '20', '30'],
      ['8', '20', '40'],
    ]);
    expect(results[0]!.startsWith('func.py\n\nYou have used')).toBe(true);
    // What the model read on its second turn is the result with the warning.
    expect(model.calls[1]!.messages.at(-1)!.content).toBe(results[0]);
  });

  it('says tokens and dollars too when they are limited, and nothing without the flag', async () => {
    const turns = [call('bash', { command: 'ls' }), call('submit')];
    const routes = [bashRoute(/^ls$/, () => ({ stdout: 'func.py' }))];
    const limited = await runLoopInMemory({ routes, turns, maxAttempts: 1, limits: { budgetWarning: true, maxTokens: 100_000, maxCostUsd: 2 } });
    expect(toolResults(limited.result)[0]).toMatch(
      /You have used \d+ tokens out of 100000 \(\d+%\), \d+ left\. You have spent \$\d+\.\d{4} out of \$2\.0000/,
    );
    const plain = await runLoopInMemory({ routes, turns, maxAttempts: 1 });
    expect(toolResults(plain.result)[0]).toBe('func.py');
  });

  it('goes with each command output and feedback of the minimal SWE loop, as the harness sends it', async () => {
    const { result } = await runLoopInMemory({
      scaffold: 'minimal',
      task: sweTask,
      routes: [
        bashRoute(/^ls$/, () => ({ stdout: 'func.py' })),
        bashRoute(/^echo IMPOSSIBLEBENCH_SUBMIT/, () => ({ stdout: `${SWE_SUBMIT_SENTINEL}\n` })),
      ],
      turns: [{ text: 'no block' }, { text: '```bash\nls\n```' }, { text: `\`\`\`bash\necho ${SWE_SUBMIT_SENTINEL}\n\`\`\`` }],
      maxAttempts: 2,
      limits: { maxMessages: 30, budgetWarning: true },
    });
    const sent = feedback(result);
    expect(sent.length).toBeGreaterThanOrEqual(3);
    for (const text of sent) expect(text).toMatch(WARNING);
  });

  it('uses a replaced template', async () => {
    const text = 'BUDGET {{used}}/{{max}} left {{left}}{{tokens}}{{cost}}';
    const templates = withOverrides({ 'budget.warning': { file: 'mine.txt', text, sha256: promptSha256(text) } });
    const { result } = await runLoopInMemory({
      routes: [bashRoute(/^ls$/, () => ({ stdout: 'func.py' }))],
      turns: [call('bash', { command: 'ls' }), call('submit')],
      maxAttempts: 1,
      limits: { maxMessages: 10, budgetWarning: true },
      templates,
    });
    expect(toolResults(result)[0]).toBe('func.py\n\nBUDGET 4/10 left 6');
  });
});
