import type { Command } from 'commander';
import { UserError } from '../errors.js';

// Placeholder until the `datasets` command lands.
export function register(program: Command): void {
  program
    .command('datasets')
    .description('(not available yet)')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('`datasets` is not available in this build yet');
    });
}
