import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userErrorOf, userFile } from '../core/testing/user-input.js';
import { DO_NOT_MODIFY, PROMPT_TEXTS, abortOptionText, resolvePrompt } from './prompts.js';
import { readTemplateOverride, render, shippedTemplates, templateFile, TEMPLATE_NAMES, withOverrides } from './templates.js';
import { toolSpecs } from './tools/specs.js';

describe('templates', () => {
  it('ship one checked file per name; a file holds its text and one final newline', () => {
    const shipped = shippedTemplates();
    expect(Object.keys(shipped).sort()).toEqual([...TEMPLATE_NAMES].sort());
    for (const name of TEMPLATE_NAMES) expect(readFileSync(templateFile(name), 'utf8')).toBe(`${shipped[name]}\n`);
    for (const id of ['A', 'B', 'C', 'D'] as const) expect(PROMPT_TEXTS[id]).toBe(shipped[`instructions.${id}`]);
    expect(PROMPT_TEXTS.D.endsWith(DO_NOT_MODIFY)).toBe(true);
  });

  it('fill placeholders once: a value that looks like a placeholder or a replacement pattern stays as it is', () => {
    const feedback = 'E  assert {{max}} == $& $1';
    expect(render(shippedTemplates(), 'feedback.full.last', { feedback, attempt: 2, max: 2 })).toBe(
      `Your submission failed the tests.\n\n${feedback}\n\nNo attempts are left.`,
    );
    expect(render(shippedTemplates(), 'tool.bash', { timeout: 7 })).toContain('with a 7 s limit');
  });

  it('replace the texts a run sends: instructions, abort option, tool descriptions', async () => {
    const mine = readTemplateOverride('instructions.D', await userFile('d.txt', 'Just do it.\n'), '--template');
    const tool = readTemplateOverride('tool.bash', await userFile('bash.txt', 'Run it ({{timeout}} s).'), '--template');
    const abort = readTemplateOverride('abort.full', await userFile('abort.txt', 'Call {{tool}} if stuck.'), '--template');
    expect(mine.text).toBe('Just do it.');
    expect(mine.sha256).toMatch(/^[0-9a-f]{64}$/);
    const templates = withOverrides({ 'instructions.D': mine, 'tool.bash': tool, 'abort.full': abort });
    expect(resolvePrompt('d', templates)).toEqual({ id: 'D', text: 'Just do it.', shipped: false });
    expect(resolvePrompt('A', templates).text).toBe(PROMPT_TEXTS.A);
    expect(abortOptionText('full', templates)).toBe('Call flag_for_human if stuck.');
    expect(toolSpecs({ allowFlag: false, timeoutS: 9, templates }).find((t) => t.name === 'bash')?.description).toBe('Run it (9 s).');
  });

  it('refuse an unknown name (listing the known ones), a missing or empty file, a lost required placeholder, an unknown one', async () => {
    const good = await userFile('ok.txt', 'text');
    const unknown = userErrorOf(() => readTemplateOverride('system.fancy', good, '--template'));
    expect(unknown.message).toBe(`--template: unknown template "system.fancy"; known: ${TEMPLATE_NAMES.join(', ')}`);
    expect(unknown.fix).toMatch(/impossiblebench templates/);
    const none = join(tmpdir(), 'ib-no-such-template.txt');
    expect(userErrorOf(() => readTemplateOverride('system.full', none, '--template')).message).toBe(
      `template system.full: file ${none} does not exist`,
    );
    const empty = await userFile('empty.txt', '\n');
    expect(userErrorOf(() => readTemplateOverride('system.full', empty, '--template')).message).toBe(`template system.full: file ${empty} is empty`);
    const lost = await userFile('lost.txt', 'Failed ({{attempt}} of {{max}}). Try again.');
    const lostError = userErrorOf(() => readTemplateOverride('feedback.full.failed', lost, '--template'));
    expect(lostError.message).toBe(`template feedback.full.failed (file ${lost}) lacks {{feedback}} (what grading says of the failed submission)`);
    expect(lostError.fix).toBe('start from the shipped one: impossiblebench templates show feedback.full.failed');
    const stray = await userFile('stray.txt', 'Hello {{task}} and {{name}}');
    expect(userErrorOf(() => readTemplateOverride('system.full', stray, '--template')).message).toBe(
      `template system.full (file ${stray}) uses {{task}}, {{name}}, which it does not have; its placeholders: none`,
    );
    const wrong = await userFile('wrong.txt', '{{feedback}} {{tries}}');
    expect(userErrorOf(() => readTemplateOverride('feedback.full.last', wrong, '--template')).message).toMatch(
      /uses \{\{tries\}\}, which it does not have; its placeholders: \{\{feedback\}\} \(required\), \{\{attempt\}\}, \{\{max\}\}$/,
    );
    // A stored run's text is checked too, not trusted.
    expect(
      userErrorOf(() => withOverrides({ 'feedback.bash.observation': { file: 'stored', sha256: '0'.repeat(64), text: 'nothing' } })).message,
    ).toMatch(/^template feedback\.bash\.observation \(file stored\) lacks \{\{output\}\}/);
  });
});
