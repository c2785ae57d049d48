// Placeholder until the command lands; replaced by its implementation.
import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { CliError } from './exit.js';

export function register(program: Command, _ctx: CliContext): void {
  program
    .command('token')
    .description('(not implemented yet)')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new CliError('menuctl token is not implemented yet');
    });
}
