// Writes docs/cli.md from the commands' own --help, so the reference cannot drift from the code.
// After changing a flag: `npx tsc -p . && node scripts/cli-docs.mjs`. With --check it only
// compares, and exits 1 when docs/cli.md is out of date (a test runs that).
import { readFileSync, writeFileSync } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import { run } from '../dist/cli/main.js';

const COMMANDS = ['validate', 'test', 'plan', 'apply', 'drift', 'export', 'import', 'state', 'state list', 'state show', 'state rm', 'state push', 'state unlock', 'operators', 'serve', 'token', 'demo', 'docs', 'sessions', 'sessions import', 'replay'];
const FILE = new URL('../docs/cli.md', import.meta.url);

async function help(argv) {
  const chunks = [];
  const out = new PassThrough();
  out.on('data', (c) => chunks.push(c.toString()));
  const io = { stdout: Object.assign(out, { columns: 100 }), stderr: out, stdin: Readable.from([]), env: { NO_COLOR: '1' }, cwd: process.cwd() };
  await run(argv, io);
  await new Promise((r) => setImmediate(r));
  return chunks.join('').trimEnd();
}

async function render() {
  const parts = [
    '# Command reference',
    '',
    'Generated from `menuctl <command> --help` by `scripts/cli-docs.mjs`; a test fails when it is out of date.',
    'The behaviour behind the flags: [config](config.md), [regex](regex.md), [planning](planning.md),',
    '[apply](apply.md), [output](output.md), [API and server](api.md), [sessions](sessions.md).',
    '',
    '```',
    await help(['--help']),
    '```',
  ];
  for (const c of COMMANDS) parts.push('', `## menuctl ${c}`, '', '```', await help([...c.split(' '), '--help']), '```');
  return parts.join('\n') + '\n';
}

const text = await render();
if (process.argv.includes('--check')) {
  if (readFileSync(FILE, 'utf8') !== text) {
    console.error('docs/cli.md is out of date: run `npx tsc -p . && node scripts/cli-docs.mjs`');
    process.exit(1);
  }
} else {
  writeFileSync(FILE, text);
}
