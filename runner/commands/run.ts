import type { Command } from 'commander';
import { UserError } from '../errors.js';

// Placeholder until the `run` command lands.
export function register(program: Command): void {
  program
    .command('run')
    .description('(not available yet)')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('`run` is not available in this build yet');
    });
}
