// Option parsers shared by several commands.
import { Option } from 'commander';

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

export function recreateOption(): Option {
  return new Option('--recreate <address>', 'confirm that an app whose create was interrupted does not exist, so it is created again (repeatable)')
    .argParser(collect).default([]);
}
