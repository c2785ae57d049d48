// Option parsers shared by several commands.
import { InvalidArgumentError, Option } from 'commander';
import { DEFAULT_THRESHOLDS } from '../plan/safety.js';

/** For repeatable flags: --target A --target B. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function formatOption(choices: string[], fallback = 'text'): Option {
  return new Option('--format <format>', 'output format').choices(choices).default(fallback);
}

export function targetOption(): Option {
  return new Option('--target <address>', 'limit to this resource and its parsers (repeatable), e.g. action["Check balance"]')
    .argParser(collect).default([]);
}

export function resendOption(): Option {
  return new Option('--resend <address>', 're-send the steps of this action even if they look unchanged (repeatable; "all" for every action)')
    .argParser(collect).default([]);
}

/**
 * A flag that names a file: an empty value (`--out ""`, an unset variable in a CI script) is
 * refused rather than quietly taken as "not given" or as the current directory.
 */
export function filePath(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('needs a file path; got an empty one (an unset variable in a script?).');
  return value;
}

function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number, 0 or more.');
  return n;
}

function percent(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100) throw new InvalidArgumentError('must be a number from 0 to 100.');
  return n;
}

/**
 * --max-archive and --max-archive-percent, without a commander default so a command can tell
 * whether they were given (apply refuses them with --plan: the saved plan records its own).
 */
export function thresholdOptions(): Option[] {
  return [
    new Option('--max-archive <n>', `archives allowed without --force when also over --max-archive-percent (default ${DEFAULT_THRESHOLDS.maxArchive})`)
      .argParser(nonNegativeInt),
    new Option('--max-archive-percent <p>', `share of managed resources archived without --force (default ${DEFAULT_THRESHOLDS.maxArchivePercent})`)
      .argParser(percent),
  ];
}

/** The thresholds given on the command line, defaults filled. */
export function thresholdsOf(flags: { maxArchive?: number; maxArchivePercent?: number }): { maxArchive: number; maxArchivePercent: number } {
  return {
    maxArchive: flags.maxArchive ?? DEFAULT_THRESHOLDS.maxArchive,
    maxArchivePercent: flags.maxArchivePercent ?? DEFAULT_THRESHOLDS.maxArchivePercent,
  };
}

export function recreateOption(): Option {
  return new Option('--recreate <address>', 'confirm that an app whose create was interrupted does not exist, so it is created again (repeatable)')
    .argParser(collect).default([]);
}

export function envOption(): Option {
  return new Option('--env <name>', 'the environment (from the config\'s `environments:`) to act on (env: MENUCTL_ENV)');
}
