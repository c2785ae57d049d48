// menuctl state's subcommands and flags; the handlers (cli/state.ts) are imported when one runs.

import { Command } from 'commander';
import type { CliContext } from './context.js';
import { lockTimeoutOption, recordOption, stateOption } from './record.js';
import type { StateFlags } from './state.js';

const PATHS = ['[path...]', 'config files or directories: the default record is menuctl.lock beside them'] as const;

export function register(program: Command, ctx: CliContext): void {
  const state = program
    .command('state')
    .description('inspect and move the applied-state record: list, show, rm, push, unlock (docs/planning.md "State backends")');
  const sub = (name: string, description: string): Command => state
    .command(name)
    .description(description)
    .addOption(stateOption())
    .addOption(recordOption());
  const run = (handler: (s: typeof import('./state.js')) => Promise<number>) => async () => {
    ctx.setExit(await handler(await import('./state.js')));
  };

  sub('list', 'one line per recorded resource: scope, address, live id')
    .argument(...PATHS)
    .option('--scope <key>', 'only this scope (as `state list` prints it)')
    .action((paths: string[], flags: StateFlags) => run((s) => s.stateList(paths, flags, ctx))());
  sub('show', 'what the record holds for one address (every scope that has it)')
    .argument('<address>', 'e.g. action["Check balance"] or app["com.example.wallet"]')
    .argument(...PATHS)
    .option('--scope <key>', 'only this scope')
    .action((address: string, paths: string[], flags: StateFlags) => run((s) => s.stateShow(address, paths, flags, ctx))());
  sub('rm', 'forget one address: menuctl no longer manages that live resource (nothing is sent to the API)')
    .argument('<address>', 'e.g. action["Check balance"]')
    .argument(...PATHS)
    .option('--scope <key>', 'the scope to remove it from, when more than one holds it')
    .addOption(lockTimeoutOption())
    .action((address: string, paths: string[], flags: StateFlags) => run((s) => s.stateRm(address, paths, flags, ctx))());
  sub('push', 'copy every scope of the record to another backend (e.g. from the file to git or PostgreSQL)')
    .requiredOption('--to <url>', 'the destination: file:PATH, git+URL#BRANCH or postgres://USER@HOST:PORT/DB')
    .option('--overwrite', 'replace scopes the destination already holds with other content')
    .argument(...PATHS)
    .addOption(lockTimeoutOption())
    .action((paths: string[], flags: StateFlags) => run((s) => s.statePush(paths, flags, ctx))());
  sub('unlock', 'release a lock its holder left behind (a killed apply); the refusal that named it gives the id')
    .argument('<lock-id>', 'the lock id')
    .argument(...PATHS)
    .option('--force', 'release it even though its holder still runs (on this host, or connected to PostgreSQL): that run stops at its next write')
    .action((id: string, paths: string[], flags: StateFlags) => run((s) => s.stateUnlock(id, paths, flags, ctx))());
}
