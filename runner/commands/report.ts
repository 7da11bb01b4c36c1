import type { Command } from 'commander';
import { UserError } from '../errors.js';

// Placeholder until the `report` command lands.
export function register(program: Command): void {
  program
    .command('report')
    .description('(not available yet)')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('`report` is not available in this build yet');
    });
}
