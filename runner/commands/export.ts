import type { Command } from 'commander';
import { UserError } from '../errors.js';

// Placeholder until the `export` command lands.
export function register(program: Command): void {
  program
    .command('export')
    .description('(not available yet)')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('`export` is not available in this build yet');
    });
}
