// test/fixtures/real-parsers.tsv: source, regex, message (`\n` in a message is a line break).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface RealRow { source: string; regex: string; message: string }

export function realParsers(): RealRow[] {
  const file = fileURLToPath(new URL('../fixtures/real-parsers.tsv', import.meta.url));
  const [, ...rows] = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  return rows.map((line) => {
    const [source, regex, message] = line.split('\t') as [string, string, string];
    return { source, regex, message: message.replace(/\\n/g, '\n') };
  });
}
