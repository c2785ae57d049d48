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
