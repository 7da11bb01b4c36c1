import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { describePlaceholders, shippedTemplateDir, TEMPLATE_NAMES, TEMPLATE_SPECS, templateFile, templateName } from '../../scaffolds/templates.js';

/** The listing: every template's name, what it is and its placeholders, and where the shipped files are. */
export function templatesListing(): string {
  const width = Math.max(...TEMPLATE_NAMES.map((n) => n.length));
  const lines = TEMPLATE_NAMES.map((name) => `  ${name.padEnd(width)}  ${TEMPLATE_SPECS[name].what}; placeholders: ${describePlaceholders(name)}`);
  return [
    `The texts an agent is sent, as shipped in ${shippedTemplateDir()}:`,
    ...lines,
    '',
    'Print one with `impossiblebench templates show NAME`, copy it, edit it, and pass --template NAME=FILE to run or demo',
    '(or `templates: {NAME: FILE}` in a config file). {{name}} marks a value the harness fills in; a replacement must keep',
    "the required ones and may use no others. A file's final newline is not part of the text.",
  ].join('\n');
}

export function register(program: Command): void {
  const templates = program
    .command('templates')
    .summary('list the prompt templates a run can replace (--template NAME=FILE)')
    .description(
      "Lists every text an agent is sent (system prompts, instructions A-D, abort option, feedback, tool descriptions) by the name --template and a config file's `templates:` use.",
    )
    .action(() => {
      process.stdout.write(`${templatesListing()}\n`);
    });
  templates
    .command('show <name>')
    .description('print a shipped template exactly as its file holds it, to copy and edit')
    .action((name: string) => {
      process.stdout.write(readFileSync(templateFile(templateName(name, 'templates show')), 'utf8'));
    });
}
