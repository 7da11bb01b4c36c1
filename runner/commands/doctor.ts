import type { Command } from 'commander';
import { UserError } from '../errors.js';

// Placeholder until the `doctor` command lands.
export function register(program: Command): void {
  program
    .command('doctor')
    .description('(not available yet)')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('`doctor` is not available in this build yet');
    });
}
