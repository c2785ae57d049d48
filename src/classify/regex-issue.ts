// One finding of the regex dialect lint (lint.ts), also what java-regex.ts answers when a pattern
// cannot be compiled: its own file, so java-regex.ts need not import the lint that imports it.

export interface RegexIssue {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  /** Offset in the pattern the issue points at, when known. */
  index?: number;
}
