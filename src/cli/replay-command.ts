// menuctl replay's flags; the handler (cli/replay.ts: config, records, classification, reports)
// is imported when the command runs.

import { InvalidArgumentError, Option, type Command } from 'commander';
import type { CliContext } from './context.js';
import { envOption, filePath, formatOption } from './options.js';
import type { ReplayFlags } from './replay.js';
import { stateOption } from './record.js';
import { DEFAULT_TIMEOUT_MS } from '../classify/run-fixtures.js';
import { DEFAULT_MAX_RECORD_BYTES } from '../replay/read-records.js';

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
    .option('--max-record-size <size>', 'the largest record read, a *.jsonl line or a *.json file: bytes, or with KiB or MiB (default 1MiB, at most 256MiB); a larger one is an error naming its file:line',
      recordSize, DEFAULT_MAX_RECORD_BYTES)
    .action(async (paths: string[], flags: ReplayFlags) => ctx.setExit(await (await import('./replay.js')).runReplay(paths, flags, ctx)));
}

const UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kib: 1024, kb: 1024, m: 1024 ** 2, mib: 1024 ** 2, mb: 1024 ** 2 };
/** Past this a record's text nears what V8 can hold as one string, with its parse on top. */
const MAX_RECORD_SIZE = 256 * 1024 ** 2;

function recordSize(value: string): number {
  const m = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(value);
  const unit = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  const bytes = m && unit !== undefined ? Number(m[1]) * unit : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1 || bytes > MAX_RECORD_SIZE) {
    throw new InvalidArgumentError('expected a size from 1 byte to 256MiB: a number of bytes, or with KiB or MiB (512KiB, 4MiB).');
  }
  return bytes;
}
