// menuctl secrets pull's flags; the handler (cli/secrets.ts) is imported when it runs.

import { Option, type Command } from 'commander';
import type { CliContext } from './context.js';
import { envOption, filePath } from './options.js';
import { recordOption, stateOption } from './record.js';
import { addConnectionOptions } from './connect.js';
import type { SecretsFlags } from './secrets.js';

export function register(program: Command, ctx: CliContext): void {
  const secrets = program.command('secrets').description('app secrets the API keeps: pull them by the ids in the record');
  const pull = secrets
    .command('pull')
    .description('write the token and webhook secret of every app menuctl manages (read by the record\'s ids) to a file, mode 0600; nothing secret is printed')
    .argument('[path...]', 'config files or directories (default ./menuctl.yaml): they locate the record and the environments')
    .requiredOption('--out <file>', 'where to write them (replaced atomically, mode 0600)', filePath)
    .addOption(new Option('--format <format>', 'json: the secrets file apply writes (keyed by address); env: NAME=value lines').choices(['json', 'env']).default('json'))
    .addOption(recordOption())
    .addOption(stateOption())
    .addOption(envOption());
  addConnectionOptions(pull);
  pull.action(async (paths: string[], flags: SecretsFlags) => {
    ctx.setExit(await (await import('./secrets.js')).runSecretsPull(paths, flags, ctx));
  });
}
