// The engine's refusals (engine/errors.ts) as the CLI's errors: each kind its stable code.

import { EngineRefusal } from '../engine/errors.js';
import { CliError } from './exit.js';

/** `work`, with an EngineRefusal it throws turned into the CliError that names its code. */
export async function refusalsAsCliErrors<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof EngineRefusal) throw cliErrorOf(err);
    throw err;
  }
}

function cliErrorOf(e: EngineRefusal): CliError {
  switch (e.kind) {
    case 'secrets-file-unreadable':
      return new CliError(e.message, { code: 'secrets-file.unreadable' });
    case 'output-unwritable':
      return new CliError(e.message, { code: 'output.unwritable' });
    case 'archive-threshold':
      return new CliError(e.message, { code: 'plan.refused' });
    case 'apply-refused':
      return new CliError(e.message, { code: 'apply.refused' });
    case 'record-secret':
      return new CliError(e.message, { code: 'record.secret' });
  }
}
