import type { Command } from 'commander';
import { UserError } from '../errors.js';

// Placeholder until the `images` command lands.
export function register(program: Command): void {
  program
    .command('images')
    .description('(not available yet)')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('`images` is not available in this build yet');
    });
}
