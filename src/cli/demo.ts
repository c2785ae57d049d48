// menuctl demo: the whole job end to end, narrated, against an embedded reference server on a
// temporary database. Every step runs the real command in-process with the real HTTP client.

import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { RunningServer } from '../server/index.js';
import type { CliContext } from './context.js';
import { CliError, EXIT } from './exit.js';
import { useColor, type Io } from './io.js';
import { requireSqlite } from './serve.js';

const EXAMPLES = fileURLToPath(new URL('../../examples', import.meta.url));

interface Step {
  title: string;
  why: string;
  argv: string[];
  /** Exit codes that mean the step did what the demo expects. */
  expect: number[];
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command('demo')
    .description('start an embedded reference server, then validate, test, replay a parser change on recorded traffic, plan, apply, plan again, show drift and repair it')
    .argument('[path]', 'config to use (default: the examples/ that ship with menuctl)')
    .option('--full', "run the reference server with its extensions (GET /api/apps, meta, PATCH answers) instead of only what the real service offers (serve --spec-only)", false)
    .action(async (path: string | undefined, flags: { full: boolean }) => ctx.setExit(await runDemo(path ?? EXAMPLES, ctx, { specOnly: !flags.full })));
}

/**
 * By default the server is spec-only: the API as the real service offers it (no GET /api/apps,
 * no list meta, no PATCH answer for actions), so the demo teaches what a user meets there, lock
 * file included (a newcomer who only ever saw the extended server was surprised by the real one).
 */
export async function runDemo(path: string, ctx: CliContext, options: { specOnly?: boolean } = {}): Promise<number> {
  const specOnly = options.specOnly ?? true;
  const { io } = ctx;
  requireSqlite();
  // Loaded here, not at the top: `menuctl --help` registers demo without starting a server.
  const { startServer } = await import('../server/index.js');
  const dir = await mkdtemp(join(tmpdir(), 'menuctl-demo-'));
  const say = narrator(io);
  let server: RunningServer | undefined;
  try {
    server = await startServer({ data: join(dir, 'demo.sqlite'), port: 0, jwtSecret: randomBytes(32).toString('hex'), specOnly });
    const token = await server.mintToken(1, '1h');
    const env = { ...io.env, MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token, MENUCTL_ORGANIZATION_ID: '1' };
    const sub: Io = { ...io, env };
    const config = relative(io.cwd, path) || '.';
    const secrets = join(dir, 'app-secrets.json');
    // The applied-state record of this throwaway server stays in the temp directory too.
    const record = ['--record', join(dir, 'menuctl.lock')];
    say.intro(server.url, config, specOnly);

    const runStep = async (step: Step): Promise<void> => {
      say.step(step);
      const code = await ctx.run(step.argv, sub);
      if (ctx.signal.aborted) throw new CliError('demo interrupted', { code: 'interrupted', exit: EXIT.INTERRUPTED });
      if (!step.expect.includes(code)) {
        throw new CliError(`demo step "${step.title}" exited ${code}, expected ${step.expect.join(' or ')}`, { code: 'demo.step-failed' });
      }
    };

    await runStep({ title: 'validate', why: 'Schema, semantic checks and the Java regex lint, offline.', argv: ['validate', config], expect: [0] });
    await runStep({ title: 'test', why: 'Each parser fixture and whole session runs offline with the device\'s regex semantics (case-insensitive, whole message); one session is shown as a dialogue.', argv: ['test', config, '--transcript-for', 'balance by SMS'], expect: [0] });
    const change = await parserChange(path, join(dir, 'changed'));
    if (change) {
      await runStep({
        title: 'replay', why: `A parser change, tried on recorded traffic before it ships: ${change.what}. Compared with the config as it is (--baseline), the change moves these recorded outcomes; what no parser reads is grouped by shape (an outage).`,
        argv: ['replay', change.dir, '--records', relative(io.cwd, change.records), '--baseline', config, '--detailed-exitcode'], expect: [2],
      });
    }
    // Saved, then carried out as reviewed (what CI does, docs/ci.md): apply does not print the plan again.
    const saved = join(dir, 'plan.json');
    await runStep({ title: 'plan', why: 'The organization is empty, so everything is a create. The plan is saved for review.', argv: ['plan', config, '--out', saved, ...record], expect: [0] });
    await runStep({ title: 'apply', why: 'Carries out exactly the saved plan: actions first, then their parsers; app secrets go only to the secrets file.', argv: ['apply', '--plan', saved, config, '--yes', '--secrets-file', secrets, ...record], expect: [0] });
    await runStep({ title: 'plan again', why: 'Applied means converged: the second plan must be empty.', argv: ['plan', config, '--detailed-exitcode', ...record], expect: [0] });

    const edited = await editOutOfBand(server.url, token);
    say.edit(edited);
    await runStep({ title: 'drift', why: 'A scheduled job would run this: exit 2 means someone changed things outside git.', argv: ['drift', config, ...record], expect: [2] });
    await runStep({ title: 'apply (repair)', why: 'The config is the source of truth: apply puts the parser back.', argv: ['apply', config, '--yes', '--secrets-file', secrets, ...record], expect: [0] });
    await runStep({ title: 'drift again', why: 'In sync.', argv: ['drift', config, ...record], expect: [0] });
    say.outro(secrets);
    return EXIT.OK;
  } finally {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The example's wrong-PIN parser, and the same parser that also reads the new wording seen in examples/records. */
const WRONG_PIN = "regex: '(You have entered an? )?(wrong|incorrect|invalid) PIN\\b.*'";
const WRONG_PIN_FIXED = "regex: '(You have entered an? )?(wrong|incorrect|invalid) PIN\\b.*|.*the PIN you entered is incorrect.*'";

/**
 * A copy of the config with one parser changed, for the replay step: only for a config that has
 * recorded traffic beside it (`records/`) and the parser the change is about (the examples);
 * another config skips the step rather than failing the demo.
 */
async function parserChange(path: string, out: string): Promise<{ dir: string; records: string; what: string } | null> {
  let files: string[];
  try {
    files = (await readdir(path)).filter((f) => /\.ya?ml$/.test(f));
    await readdir(join(path, 'records'));
  } catch {
    return null;
  }
  await mkdir(out, { recursive: true });
  let changed = false;
  for (const f of files) {
    const text = await readFile(join(path, f), 'utf8');
    changed ||= text.includes(WRONG_PIN);
    await writeFile(join(out, f), text.replaceAll(WRONG_PIN, WRONG_PIN_FIXED));
  }
  return changed ? { dir: out, records: join(path, 'records'), what: 'the wrong-PIN parsers also read "the PIN you entered is incorrect"' } : null;
}

/** What a colleague might do in a dashboard: loosen one parser's regex. */
async function editOutOfBand(url: string, token: string): Promise<string> {
  const { createClient } = await import('../api/client.js');
  const client = createClient({ baseUrl: url, token });
  try {
    const actions = (await client.listActions()).filter((a) => a.archived_at === null);
    for (const action of actions) {
      const parser = (await client.listParsers(action.id)).find((p) => p.archived_at === null);
      if (!parser) continue;
      await client.updateParser(parser.id, { regex: '.*' });
      return `parser "${parser.category}" of action "${action.name}": regex set to '.*'`;
    }
    throw new CliError('demo: the config has no parser to edit', { code: 'demo.no-parser' });
  } finally {
    await client.close();
  }
}

function narrator(io: Io) {
  const color = useColor(io);
  const bold = (s: string) => (color ? `\x1b[1m${s}\x1b[22m` : s);
  const dim = (s: string) => (color ? `\x1b[2m${s}\x1b[22m` : s);
  let n = 0;
  const out = (s: string) => io.stdout.write(s + '\n');
  return {
    intro(url: string, config: string, specOnly: boolean) {
      out(bold('menuctl demo'));
      out(`A reference API server is running at ${url} on a temporary SQLite database.`);
      out(specOnly
        ? 'It serves only what the real service offers (serve --spec-only): no app listing, no counts, no PATCH answer for actions, so menuctl keeps what the API cannot tell it in a lock file (docs/planning.md). `menuctl demo --full` runs with the reference extensions.'
        : 'It runs with the reference extensions (GET /api/apps, list counts, PATCH answers); the real service has none of them: `menuctl demo` without --full shows what it offers.');
      out(`The config is ${config}. Credentials reach menuctl through MENUCTL_TOKEN, never a flag.`);
    },
    step(step: Step) {
      n += 1;
      out('');
      out(bold(`── ${n}. menuctl ${step.argv.join(' ')}`));
      out(dim(step.why));
      out('');
    },
    edit(what: string) {
      out('');
      out(bold('── Meanwhile, someone edits the live API by hand'));
      out(dim(what));
    },
    outro(secrets: string) {
      out('');
      out(bold('Done.') + ` The new apps' tokens were written to ${secrets} (mode 0600) and never printed;`);
      out('the temporary database and that file are removed now. Next: docs/ci.md runs the same steps in CI.');
    },
  };
}
