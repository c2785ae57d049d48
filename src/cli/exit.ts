// Exit codes, in one place (CONTRACT.md, Commands).
export const EXIT = {
  OK: 0,
  /** invalid input, failed test, API error, or any change failed */
  ERROR: 1,
  /** plan --detailed-exitcode: changes present; drift: drift found */
  CHANGES: 2,
  INTERRUPTED: 130,
} as const;

/** An error the CLI reports as one clean message (no stack), exiting with `code`. */
export class CliError extends Error {
  constructor(message: string, readonly code: number = EXIT.ERROR) {
    super(message);
    this.name = 'CliError';
  }
}
