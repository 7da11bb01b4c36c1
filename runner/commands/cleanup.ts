import type { Command } from 'commander';
import { UserError } from '../errors.js';

// Placeholder until the `cleanup` command lands.
export function register(program: Command): void {
  program
    .command('cleanup')
    .description('(not available yet)')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('`cleanup` is not available in this build yet');
    });
}
