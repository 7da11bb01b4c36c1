import { CommanderError } from 'commander';
import { formatError } from '../core/errors.js';
import { buildProgram } from './program.js';

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
