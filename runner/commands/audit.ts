import type { Command } from 'commander';
import { UserError } from '../errors.js';

// Placeholder until the `audit` command lands.
export function register(program: Command): void {
  program
    .command('audit')
    .description('(not available yet)')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('`audit` is not available in this build yet');
    });
}
