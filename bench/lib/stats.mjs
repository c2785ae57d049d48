// Small numeric helpers and formatting for the bench reports.

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export const secs = (ms) => `${(ms / 1000).toFixed(2)} s`;
export const mb = (kb) => (kb == null ? 'n/a' : `${Math.round(kb / 1024)} MB`);
export const ratio = (a, b) => `${(a / b).toFixed(2)}x`;

/** A GitHub-flavoured markdown table from a header row and rows of cells. */
export function table(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Logs progress to stderr so stdout stays the report. */
export const note = (msg) => process.stderr.write(`[bench] ${msg}\n`);
