import { Command } from 'commander';
import { packageVersion } from '../results/package-version.js';
import { register as registerDoctor } from './commands/doctor.js';
import { register as registerImages } from './commands/images.js';
import { register as registerCleanup } from './commands/cleanup.js';
import { register as registerDatasets } from './commands/datasets.js';
import { register as registerMutate } from './commands/mutate.js';
import { register as registerAudit } from './commands/audit.js';
import { register as registerPreflight } from './commands/preflight.js';
import { register as registerRun } from './commands/run.js';
import { register as registerReport } from './commands/report.js';
import { register as registerCompare } from './commands/compare.js';
import { register as registerView } from './commands/view.js';
import { register as registerStore } from './commands/store.js';
import { register as registerExport } from './commands/export.js';
import { register as registerImport } from './commands/import.js';
import { register as registerClassify } from './commands/classify.js';
import { register as registerMonitor } from './commands/monitor.js';
import { register as registerDemo } from './commands/demo.js';
import { register as registerTemplates } from './commands/templates.js';

/** The whole command line: every command, its flags and its help. */
export function buildProgram(): Command {
  const program = new Command('impossiblebench')
    .description('Measure how often an LLM coding agent cheats: run it on impossible variants of coding tasks, in Docker sandboxes.')
    .version(packageVersion())
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  for (const register of [
    registerDemo,
    registerRun,
    registerReport,
    registerCompare,
    registerView,
    registerStore,
    registerExport,
    registerImport,
    registerClassify,
    registerMonitor,
    registerTemplates,
    registerDatasets,
    registerMutate,
    registerAudit,
    registerPreflight,
    registerDoctor,
    registerImages,
    registerCleanup,
  ]) {
    register(program);
  }
  return program;
}
