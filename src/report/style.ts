// ANSI colour helpers. Renderers take `color` as a plain boolean decided by the CLI
// (src/cli/io.ts useColor: TTY only, never with NO_COLOR); disabled, every helper is identity,
// so the same rendering code produces plain text for logs, files and pipes.

export interface Style {
  readonly enabled: boolean;
  green(s: string): string;
  yellow(s: string): string;
  red(s: string): string;
  cyan(s: string): string;
  bold(s: string): string;
  dim(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => (s === '' ? s : `\x1b[${open}m${s}\x1b[${close}m`);

const ON: Style = {
  enabled: true,
  green: wrap(32, 39),
  yellow: wrap(33, 39),
  red: wrap(31, 39),
  cyan: wrap(36, 39),
  bold: wrap(1, 22),
  dim: wrap(2, 22),
};

const same = (s: string) => s;
const OFF: Style = { enabled: false, green: same, yellow: same, red: same, cyan: same, bold: same, dim: same };

export function style(color: boolean): Style {
  return color ? ON : OFF;
}

// Matches the SGR and erase-line sequences menuctl itself writes; used by tests and by
// width computations so colour never changes alignment.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

export function stripAnsi(s: string): string {
  return s.replace(ANSI, '');
}
