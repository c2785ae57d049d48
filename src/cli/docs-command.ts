// menuctl docs' flags; the handler (cli/docs.ts: the config loader and the page renderer) is
// imported when the command runs, so `menuctl --help` and `docs --help` load none of it.

import type { Command } from 'commander';
import { envOption } from './options.js';
import type { CliContext } from './context.js';
import type { EnvFlags } from './environment.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('docs')
    .description('write one Markdown page per config file with a Mermaid flowchart of each action (offline)')
    .argument('[path...]', 'config files or directories (default ./menuctl.yaml)')
    .requiredOption('--out <dir>', 'directory to write the pages to (created if missing)')
    .addOption(envOption())
    .action(async (paths: string[], options: { out: string } & EnvFlags) => (await import('./docs.js')).runDocs(paths, options, ctx));
}
