// One problem found in the input, with where it is and what to do about it.
// Collected, never thrown one at a time: every command reports all of them, then fails once.

/** Where something came from in a config file (1-based line and column). */
export interface SourceLoc {
  file: string;
  line: number;
  col: number;
}

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  severity: Severity;
  /** Stable, documented code, e.g. `schema.additional-property`, `regex.group-name`. */
  code: string;
  /** What is wrong and what to do, as one or two sentences. */
  message: string;
  loc?: SourceLoc;
  /** Resource address (action["X"].parser["y"]) when the problem belongs to one. */
  address?: string;
  /** How to resolve it, when the check knows: always a sentence, and edits when a machine can make them. */
  fix?: Fix;
}

/**
 * A change to the config that resolves a finding (a check's suggested fix). `validate --format
 * json` lists it; the language server offers its edits as a quick fix; the config editor
 * (config/edit) applies them to the user's files keeping every untouched byte.
 */
export interface Fix {
  /** What to change, as a person would say it ("write (?<amount> for (<amount>"). */
  description: string;
  /** The edits that make the change; empty when a person must choose (a value, a name). */
  edits: ConfigEdit[];
}

/** One step of a path into a config file's values: a mapping key or a list index. */
export type PathSegment = string | number;

/**
 * One edit of a config file's values, at a path as written in that file (`file` as `loc.file`
 * shows it): `set` replaces the value at the path (or adds the key to its mapping), `append`
 * adds an item at the end of the list at the path (making the list when the key is absent),
 * `delete` removes the key or the item.
 */
export type ConfigEdit =
  | { op: 'set'; file: string; path: PathSegment[]; value: unknown }
  | { op: 'append'; file: string; path: PathSegment[]; value: unknown }
  | { op: 'delete'; file: string; path: PathSegment[] };

/**
 * A warning of plan, live state, drift or verify, as data like an error: a
 * stable code tools can filter on, the message a person reads, the address when it has one.
 */
export type Warning = Diagnostic & { severity: 'warning' };

export function warning(code: string, message: string, address?: string): Warning {
  return { severity: 'warning', code, message, ...(address !== undefined ? { address } : {}) };
}

/** A diagnostic as JSON output lists it (`severity`, `code`, `message`, `address` and `fix` when known). */
export function diagnosticJson(d: Diagnostic): { severity: Severity; code: string; message: string; address?: string; fix?: Fix } {
  return {
    severity: d.severity, code: d.code, message: d.message,
    ...(d.address !== undefined ? { address: d.address } : {}),
    ...(d.fix !== undefined ? { fix: d.fix } : {}),
  };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** file:line:col, or the file alone, or '' */
export function formatLoc(loc: SourceLoc | undefined): string {
  if (!loc) return '';
  return `${loc.file}:${loc.line}:${loc.col}`;
}

/** Sorts by file, line, column, then code, so output is stable. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => {
    const fa = a.loc?.file ?? '', fb = b.loc?.file ?? '';
    if (fa !== fb) return fa < fb ? -1 : 1;
    const la = a.loc?.line ?? 0, lb = b.loc?.line ?? 0;
    if (la !== lb) return la - lb;
    const ca = a.loc?.col ?? 0, cb = b.loc?.col ?? 0;
    if (ca !== cb) return ca - cb;
    return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
  });
}
