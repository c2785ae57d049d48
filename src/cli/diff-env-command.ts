// menuctl diff-env's flags; the handler (cli/diff-env.ts: config, two API clients, the comparison)
// is imported when the command runs, so `menuctl --help` loads none of it.

import { Option, type Command } from 'commander';
import { DEFAULT_CONCURRENCY, parseConcurrency } from './connect.js';
import type { CliContext } from './context.js';
import type { DiffEnvFlags } from './diff-env.js';
import { formatOption } from './options.js';
import { recordOption, stateOption } from './record.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('diff-env')
    .description('show what differs between two environments\' live resources that the config manages in both (exit 2 when they differ)')
    .argument('<a>', 'an environment, e.g. staging')
    .argument('<b>', 'another environment, e.g. production')
    .argument('[path...]', 'config files or directories (default ./menuctl.yaml)')
    .addOption(formatOption(['text', 'json']))
    .addOption(recordOption())
    .addOption(stateOption())
    .addOption(new Option('--concurrency <n>', 'parallel requests per environment, 1..64').argParser(parseConcurrency).default(DEFAULT_CONCURRENCY))
    .action(async (a: string, b: string, paths: string[], flags: DiffEnvFlags) => ctx.setExit(await (await import('./diff-env.js')).runDiffEnv(a, b, paths, flags, ctx)));
}
