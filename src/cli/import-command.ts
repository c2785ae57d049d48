// menuctl import's flags; the handler (cli/import.ts) is imported when the command runs.

import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { envOption } from './options.js';
import { lockTimeoutOption, recordOption, stateOption } from './record.js';
import { addConnectionOptions } from './connect.js';
import type { ImportFlags } from './import.js';

export function register(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('import')
    .description('adopt a live resource: ADDRESS, which the config declares, is live id ID from now on (only reads are sent)')
    .argument('<address>', 'an action or app address the config declares, e.g. app["com.example.wallet"]')
    .argument('<id>', 'the live id (an action\'s public id, an app\'s id)')
    .argument('[path...]', 'config files or directories (default ./menuctl.yaml)')
    .addOption(recordOption())
    .addOption(stateOption())
    .addOption(lockTimeoutOption())
    .addOption(envOption());
  addConnectionOptions(cmd);
  cmd.action(async (address: string, id: string, paths: string[], flags: ImportFlags) => {
    ctx.setExit(await (await import('./import.js')).runImport(address, id, paths, flags, ctx));
  });
}
