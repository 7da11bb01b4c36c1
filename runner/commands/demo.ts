import type { Command } from 'commander';
import { UserError } from '../errors.js';

// Placeholder until the `demo` command lands.
export function register(program: Command): void {
  program
    .command('demo')
    .description('(not available yet)')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('`demo` is not available in this build yet');
    });
}
