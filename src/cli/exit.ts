// Exit codes, in one place (CONTRACT.md, Commands).
export const EXIT = {
  OK: 0,
  /** invalid input, failed test, API error, or any change failed */
  ERROR: 1,
  /** plan --detailed-exitcode: changes present; drift: drift found */
  CHANGES: 2,
  INTERRUPTED: 130,
} as const;

export interface CliErrorOptions {
  /**
   * What went wrong, as a stable dotted name (`plan.refused`, `state.no-line`, `api.url-missing`):
   * for scripts and the Action to tell refusals apart without reading the sentence, which may be
   * reworded. Without one: `cli.error`.
   */
  code?: string;
  /** The exit code (EXIT); default EXIT.ERROR. */
  exit?: number;
}

/** An error the CLI reports as one clean message (no stack), exiting with `exitCode`. */
export class CliError extends Error {
  readonly code: string;
  readonly exitCode: number;

  constructor(message: string, options: CliErrorOptions = {}) {
    super(message);
    this.name = 'CliError';
    this.code = options.code ?? 'cli.error';
    this.exitCode = options.exit ?? EXIT.ERROR;
  }
}
