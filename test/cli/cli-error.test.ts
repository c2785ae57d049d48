// CliError (src/cli/exit.ts): a stable string code beside the exit code, so a script or the
// Action can tell one refusal from another without matching the sentence.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/cli/connect.js';
import { CliError, EXIT } from '../../src/cli/exit.js';
import type { Io } from '../../src/cli/io.js';
import { run } from '../../src/cli/program.js';

const CLI = fileURLToPath(new URL('../../src/cli/', import.meta.url));
const io = (env: Record<string, string>): Io => ({
  stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env, cwd: process.cwd(),
});

function thrown(f: () => unknown): CliError {
  try {
    f();
  } catch (err) {
    if (err instanceof CliError) return err;
    throw err;
  }
  throw new Error('nothing was thrown');
}

describe('CliError', () => {
  it('carries a code and an exit code; without them, cli.error and EXIT.ERROR', () => {
    expect(new CliError('x')).toMatchObject({ message: 'x', code: 'cli.error', exitCode: EXIT.ERROR });
    expect(new CliError('y', { code: 'interrupted', exit: EXIT.INTERRUPTED })).toMatchObject({ code: 'interrupted', exitCode: 130 });
  });

  it('is thrown with the code that names the problem', () => {
    expect(thrown(() => connect({}, io({ MENUCTL_TOKEN: 't' }))).code).toBe('api.url-missing');
    expect(thrown(() => connect({}, io({ MENUCTL_API_URL: 'ftp://x', MENUCTL_TOKEN: 't' }))).code).toBe('api.url-invalid');
    expect(thrown(() => connect({ apiUrl: 'http://127.0.0.1:9' }, io({}))).code).toBe('api.credentials-missing');
  });

  it('its exit code is what the CLI exits with, its message what it prints', async () => {
    let err = '';
    const sink = { write: () => true };
    const code = await run(['x'], { ...io({}), stdout: sink as never, stderr: { write: (s: string) => ((err += s), true) } as never }, new AbortController().signal, {
      x: async () => ({
        register: (program) => { program.command('x').action(() => { throw new CliError('stopped', { code: 'test.stop', exit: 7 }); }); },
      }),
    });
    expect(code).toBe(7);
    expect(err).toBe('Error: stopped\n');
  });

  it('every throw in src/cli/ names its code', () => {
    const missing: string[] = [];
    const codes = new Set<string>();
    for (const file of readdirSync(CLI).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(CLI + file, 'utf8');
      for (const m of text.matchAll(/new CliError\(/g)) {
        // The call's text up to the next `);` at the end of a line: its options object is the last argument.
        const call = text.slice(m.index, text.indexOf(');\n', m.index) + 2);
        const code = /\{ code: '([^']+)'(?:, exit: [^}]+)? \},? ?\);$/.exec(call.replace(/\s+/g, ' '));
        if (code) codes.add(code[1]!);
        else missing.push(`${file}: ${call.slice(0, 80)}`);
      }
    }
    expect(missing).toEqual([]);
    for (const code of codes) expect(code).toMatch(/^[a-z]+(-[a-z]+)*(\.[a-z]+(-[a-z]+)*)*$/);
  });
});
