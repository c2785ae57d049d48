// PLACEHOLDER (owned by the classify work): the real Java-dialect lint replaces this.
export interface RegexIssue {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  /** Offset in the pattern the issue points at, when known. */
  index?: number;
}

export function lintRegex(pattern: string): RegexIssue[] {
  try {
    new RegExp(pattern);
    return [];
  } catch (e) {
    return [{ severity: 'error', code: 'regex.syntax', message: `does not compile: ${(e as Error).message}` }];
  }
}
