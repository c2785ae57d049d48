// menuctl replay's flags; the handler (cli/replay.ts: config, records, classification, reports)
// is imported when the command runs.

import { Option, type Command } from 'commander';
import type { CliContext } from './context.js';
import { envOption, filePath, formatOption } from './options.js';
import type { ReplayFlags } from './replay.js';
import { stateOption } from './record.js';
import { DEFAULT_TIMEOUT_MS } from '../classify/run-fixtures.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('replay')
    .description("offline: classify recorded Hover transactions with the config's parsers and show what changes, against each record's outcome or --baseline (exit 2 with --detailed-exitcode when any outcome changed)")
    .argument('[path...]', 'config files or directories (default ./menuctl.yaml)')
    .addOption(new Option('--records <file-or-dir...>', 'Hover webhook records: *.json (one body each), *.jsonl (one per line), or directories of them (required)').makeOptionMandatory())
    .addOption(new Option('--baseline <path...>', "the config to compare with (e.g. the pull request's base), instead of each record's own outcome"))
    .addOption(formatOption(['text', 'json', 'markdown']))
    .option('--detailed-exitcode', 'exit 2 when any outcome changed, 0 when none')
    .addOption(stateOption())
    .addOption(new Option('--record <file>', 'the applied-state record, read offline to match records to actions by public id (default: menuctl.lock beside the config, when there is one)').argParser(filePath))
    .addOption(envOption())
    .option('--timeout <ms>', 'time budget of the regexes on one batch of messages', (v: string) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n <= 0) throw new Error('expected a positive number of milliseconds');
      return n;
    }, DEFAULT_TIMEOUT_MS)
    .action(async (paths: string[], flags: ReplayFlags) => ctx.setExit(await (await import('./replay.js')).runReplay(paths, flags, ctx)));
}
