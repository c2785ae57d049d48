// What the engine refuses before anything is written, as data: `kind` says which problem, the
// message says what to do. The CLI maps each kind to its CliError code (cli/engine-errors.ts).

export type RefusalKind =
  /** The secrets file cannot be read (or is not a secrets file). */
  | 'secrets-file-unreadable'
  /** The secrets file or the record cannot be written. */
  | 'output-unwritable';

export class EngineRefusal extends Error {
  constructor(readonly kind: RefusalKind, message: string) {
    super(message);
    this.name = 'EngineRefusal';
  }
}
