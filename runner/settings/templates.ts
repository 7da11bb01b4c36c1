import { readTemplateOverride, withOverrides, type TemplateOverride, type Templates } from '../../scaffolds/templates.js';
import type { Experiment } from './config.js';

/**
 * The experiment with every template replacement read from its file, checked and hashed: what the run stores, so a
 * resume sends the texts the run started with (not whatever the files hold by then) and the record names each
 * replaced template with the sha256 of its text. `where` names the setting in messages.
 */
export function readTemplateFiles(experiment: Experiment, where: string): Experiment {
  const entries = Object.entries(experiment.templates);
  if (entries.every(([, o]) => typeof o !== 'string')) return experiment;
  const read = entries.map(([name, o]) => [name, typeof o === 'string' ? readTemplateOverride(name, o, where) : o]);
  return { ...experiment, templates: Object.fromEntries(read) as Record<string, TemplateOverride> };
}

/** The texts a run's agents are sent: the shipped templates with the experiment's replacements over them. */
export function experimentTemplates(experiment: Experiment, where = 'templates'): Templates {
  return withOverrides(readTemplateFiles(experiment, where).templates as Record<string, TemplateOverride>, where);
}

/** One line naming the replaced templates and their texts' hashes, or none when the shipped ones are used. */
export function templatesLine(experiment: Experiment): string | undefined {
  const entries = Object.entries(experiment.templates);
  if (entries.length === 0) return undefined;
  const named = entries.map(([name, o]) => (typeof o === 'string' ? `${name} (${o})` : `${name} (sha256 ${o.sha256.slice(0, 12)}…, ${o.file})`));
  return `templates replaced: ${named.join(', ')}`;
}
