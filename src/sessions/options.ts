// The numbered options a USSD screen lists, and which one a `select` value names.
// Pure. The rules are documented in docs/sessions.md ("How a screen is read").

export interface MenuOption {
  /** As shown: "6", "00". */
  number: string;
  text: string;
}

// "6. My Account", "6) My Account", "6: My Account", "6 - My Account", "6>My Account", "6.My Account",
// "(6) My Account", "[6] My Account", and the keys menus use for paging: "#. Next", "*: Back", "00. Home".
// The separator must be followed by a non-digit so "10.5 GB left" is not option 10.
const OPTION_LINE = /^\s*[([]?(\d{1,3}|[*#]{1,2})\s*[.):>\]-](?!\d)\s*(\S.*?)\s*$/;

// A number and separator inside a line ("Confirm? 1. Yes 2. No", "1:Yes 2:No"): an option only as
// part of a run of consecutive numbers, so "Pay 100. Confirm" stays text.
const INLINE = /(?<=^|\s)[([]?(\d{1,3})\s*[.):>\]-](?!\d)\s*/g;

const lines = (screen: string) => screen.split(/\r\n|\r|\n/);

interface Line { prose: string; options: MenuOption[] }

function readLine(line: string): Line {
  const marks = [...line.matchAll(INLINE)].map((m) => ({ at: m.index!, end: m.index! + m[0].length, n: Number(m[1]) }));
  const starts = OPTION_LINE.exec(line);
  // The run: from an option that starts the line, or from the first number followed by its successor.
  let first = starts && /^\d/.test(starts[1]!) ? marks.findIndex((m) => line.slice(0, m.at).trim() === '') : -1;
  if (first < 0 && !starts) first = marks.findIndex((m, i) => marks[i + 1]?.n === m.n + 1);
  const run = first < 0 ? [] : [marks[first]!];
  for (const m of marks.slice(first + 1)) if (first >= 0 && m.n === run[run.length - 1]!.n + 1) run.push(m);
  if (run.length < 2) {
    return starts ? { prose: '', options: [{ number: starts[1]!, text: starts[2]! }] } : { prose: line, options: [] };
  }
  const options = run.map((m, i) => ({ number: line.slice(m.at, m.end).match(/\d+/)![0], text: line.slice(m.end, run[i + 1]?.at ?? line.length).trim() }));
  return { prose: line.slice(0, run[0]!.at), options: options.filter((o) => o.text !== '') };
}

export function menuOptions(screen: string): MenuOption[] {
  return lines(screen).flatMap((line) => readLine(line).options);
}

/** The screen without its options: its title, prompt and notes. */
export function screenProse(screen: string): string {
  return lines(screen).map((line) => readLine(line).prose).filter((p) => p.trim() !== '').join('\n');
}

/** Case, Unicode normal form and runs of whitespace do not matter when reading a screen (USSD gateways reflow text). */
export function fold(text: string): string {
  // NFC: "é" typed as one character or as e + combining accent reads the same on a phone.
  return text.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function screenContains(screen: string, text: string): boolean {
  return fold(screen).includes(fold(text));
}

/** "1" and "01" name the same option; "*" and "#" are compared as written. */
export function sameOption(a: string, b: string): boolean {
  return /^\d+$/.test(a) && /^\d+$/.test(b) ? Number(a) === Number(b) : a === b;
}

export type SelectResult =
  | { ok: true; option: MenuOption }
  | { ok: false; reason: 'no-options' | 'no-match' | 'ambiguous'; candidates: MenuOption[] };

/**
 * The one option whose text contains the value (case-insensitive, whitespace folded). When several
 * contain it, one whose whole text equals the value wins ("1GB" vs "1GB Daily" and "1GB Weekly"
 * stays ambiguous; "1GB Daily" among "1GB Daily" and "1GB Daily Plus" picks the first).
 */
export function selectOption(options: readonly MenuOption[], value: string): SelectResult {
  if (options.length === 0) return { ok: false, reason: 'no-options', candidates: [] };
  const v = fold(value);
  const containing = options.filter((o) => fold(o.text).includes(v));
  if (containing.length === 1) return { ok: true, option: containing[0]! };
  if (containing.length === 0) return { ok: false, reason: 'no-match', candidates: [...options] };
  const exact = containing.filter((o) => fold(o.text) === v);
  if (exact.length === 1) return { ok: true, option: exact[0]! };
  return { ok: false, reason: 'ambiguous', candidates: containing };
}
