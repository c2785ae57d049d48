// Runs patterns through real java.util.regex (test/classify/java/RegexOracle.java) to check the
// translator against the JVM. Compiled once per test file into a temp dir.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = fileURLToPath(new URL('./java/RegexOracle.java', import.meta.url));

export type JavaResult =
  | { kind: 'error'; description: string }
  | { kind: 'exception'; name: string }
  | { kind: 'ok'; matches: boolean; groups: Record<string, string> };

/** Why the JVM cannot be used, or null when java and javac are both on PATH. */
export function javaUnavailable(): string | null {
  for (const tool of ['java', 'javac']) {
    const r = spawnSync(tool, ['-version'], { encoding: 'utf8' });
    if (r.error) return `${tool} not found on PATH (install a JDK 17 to cross-check against real Java)`;
  }
  return null;
}

export class JavaOracle {
  private constructor(private readonly dir: string) {}

  static compile(): JavaOracle {
    const dir = mkdtempSync(join(tmpdir(), 'menuctl-oracle-'));
    const r = spawnSync('javac', ['-d', dir, SOURCE], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`javac failed: ${r.stderr}`);
    return new JavaOracle(dir);
  }

  run(cases: readonly { pattern: string; message: string }[]): JavaResult[] {
    const b64 = (s: string) => Buffer.from(s, 'utf16le').toString('base64');
    const input = cases.map((c) => `${b64(c.pattern)}\t${b64(c.message)}\n`).join('');
    const r = spawnSync('java', ['--add-opens', 'java.base/java.util.regex=ALL-UNNAMED', '-cp', this.dir, 'RegexOracle'], {
      input,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (r.status !== 0) throw new Error(`java failed: ${r.stderr}`);
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    if (lines.length !== cases.length) throw new Error(`oracle answered ${lines.length} of ${cases.length} cases`);
    const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf16le');
    return lines.map((line): JavaResult => {
      const [kind, ...rest] = line.split('\t');
      if (kind === 'ERR') return { kind: 'error', description: unb64(rest[0]!) };
      if (kind === 'EXC') return { kind: 'exception', name: unb64(rest[0]!) };
      const groups: Record<string, string> = {};
      for (const g of rest.slice(1)) {
        const eq = g.indexOf('=');
        const value = g.slice(eq + 1);
        if (value !== '-') groups[g.slice(0, eq)] = unb64(value);
      }
      return { kind: 'ok', matches: rest[0] === '1', groups };
    });
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
