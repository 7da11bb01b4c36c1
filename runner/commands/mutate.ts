import type { Command } from 'commander';
import { UserError } from '../errors.js';

// Placeholder until the `mutate` command lands.
export function register(program: Command): void {
  program
    .command('mutate')
    .description('(not available yet)')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('`mutate` is not available in this build yet');
    });
}
