// `menuctl token --org N`: mints a JWT for the reference server with the same secret resolution
// as `menuctl serve`. The one place a token is printed: on purpose, to stdout only.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { CliError } from './exit.js';
import { TokenAuthority } from '../server/auth.js';
import { resolveJwtSecret } from '../server/jwt-secret.js';

interface TokenFlags {
  org: string;
  expires: string;
  jwtSecret?: string;
  data: string;
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command('token')
    .description('print a JWT for the reference server (HS256, claims organization_id and exp)')
    .requiredOption('--org <n>', 'organization id the token acts for')
    .option('--expires <duration>', 'lifetime, e.g. 2h, 30m, 7d', '2h')
    .option('--jwt-secret <secret>', 'HS256 secret (or MENUCTL_JWT_SECRET, or the secret stored beside --data)')
    .option('--data <file>', "the server's SQLite database, whose stored secret is used", './menuctl-data.sqlite')
    .action(async (flags: TokenFlags) => {
      ctx.io.stdout.write(`${await mintToken(flags, ctx)}\n`);
    });
}

export async function mintToken(flags: TokenFlags, ctx: CliContext): Promise<string> {
  const org = Number(flags.org);
  if (!/^[0-9]+$/.test(flags.org) || !Number.isSafeInteger(org) || org < 1) {
    throw new CliError(`--org must be a positive integer (got "${flags.org}")`, { code: 'option.invalid' });
  }
  if (!/^\s*\d+\s*(s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hrs|hour|hours|d|day|days|w|week|weeks)\s*$/i.test(flags.expires)) {
    throw new CliError(`--expires must be a duration such as 30m, 2h or 7d (got "${flags.expires}")`, { code: 'option.invalid' });
  }
  const data = flags.data === ':memory:' ? ':memory:' : resolve(ctx.io.cwd, flags.data);
  let secret: string;
  try {
    secret = resolveJwtSecret({ flag: flags.jwtSecret, env: ctx.io.env.MENUCTL_JWT_SECRET, data, create: false });
  } catch (err) {
    throw new CliError((err as Error).message, { code: 'token.no-secret' });
  }
  if (data === ':memory:' && !flags.jwtSecret && !ctx.io.env.MENUCTL_JWT_SECRET) {
    throw new CliError('a :memory: server keeps its secret to itself: pass --jwt-secret (the same one given to menuctl serve)', { code: 'token.no-secret' });
  }
  return new TokenAuthority(secret).mint(org, flags.expires.trim());
}
