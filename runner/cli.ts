import { Command, CommanderError } from 'commander';
import { createRequire } from 'node:module';
import { formatError } from '../core/errors.js';
import { register as registerDoctor } from './commands/doctor.js';
import { register as registerImages } from './commands/images.js';
import { register as registerCleanup } from './commands/cleanup.js';
import { register as registerDatasets } from './commands/datasets.js';
import { register as registerMutate } from './commands/mutate.js';
import { register as registerAudit } from './commands/audit.js';
import { register as registerPreflight } from './commands/preflight.js';
import { register as registerRun } from './commands/run.js';
import { register as registerReport } from './commands/report.js';
import { register as registerView } from './commands/view.js';
import { register as registerStore } from './commands/store.js';
import { register as registerExport } from './commands/export.js';
import { register as registerClassify } from './commands/classify.js';
import { register as registerMonitor } from './commands/monitor.js';
import { register as registerDemo } from './commands/demo.js';
import { register as registerTemplates } from './commands/templates.js';

const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };

export function buildProgram(): Command {
  const program = new Command('impossiblebench')
    .description('Measure how often an LLM coding agent cheats: run it on impossible variants of coding tasks, in Docker sandboxes.')
    .version(pkg.version)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  for (const register of [
    registerDemo,
    registerRun,
    registerReport,
    registerView,
    registerStore,
    registerExport,
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

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    console.error(`impossiblebench: ${formatError(err)}`);
    return 1;
  }
}

// A reader that stops early (`… | head`) is no error. The command goes on to its end, so a run
// still stores its samples and releases its sandboxes; what it prints goes nowhere.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
}

process.exitCode = await main(process.argv);
