// `menuctl operators [--country CC] [--format text|json]`: the world operators a config can
// name, from the API when one is configured (GET /api/world_operators is public, no token
// needed), else from the catalog bundled with menuctl. The first line says which.

import { type Command } from 'commander';
import type { CliContext } from './context.js';
import { formatOption } from './options.js';
import { CliError } from './exit.js';
import { addApiUrlOption, apiUrl } from './connect.js';
import { lazyClient } from '../api/lazy-client.js';
import { displayUrl } from '../api/display-url.js';
import { bundledCatalog } from '../fs/catalog-file.js';
import type { WorldOperator } from '../model/types.js';
import type { Io } from './io.js';

interface Flags {
  apiUrl?: string;
  country?: string;
  format: 'text' | 'json';
}

export interface OperatorList {
  source: 'api' | 'bundled';
  /** The API URL (without credentials), or the bundled file's name. */
  from: string;
  operators: WorldOperator[];
}

export function register(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('operators')
    .description('list world operators (id, name, country, network codes) a config can refer to')
    .option('--country <cc>', 'only operators of this country (ISO 3166 alpha-2, e.g. KE)')
    .addOption(formatOption(['text', 'json']));
  addApiUrlOption(cmd).action(async (flags: Flags) => {
    const list = await listOperators(flags, ctx.io);
    ctx.io.stdout.write(flags.format === 'json' ? `${JSON.stringify(list, null, 2)}\n` : renderText(list));
  });
}

export async function listOperators(flags: Pick<Flags, 'apiUrl' | 'country'>, io: Io): Promise<OperatorList> {
  const url = apiUrl(flags, io);
  let list: OperatorList;
  if (url === null) {
    list = { source: 'bundled', from: 'data/world-operators.tsv', operators: bundledCatalog() };
  } else {
    // Public endpoint: send a token only if one is set, never log in just for this. One
    // interactive read: a wrong URL should fail within a second, not after the full backoff.
    const token = io.env.MENUCTL_TOKEN || undefined;
    const client = lazyClient({ baseUrl: url, token, concurrency: 1, retry: { maxAttempts: 3 } });
    try {
      list = { source: 'api', from: displayUrl(url), operators: await client.listOperators() };
    } finally {
      await client.close();
    }
  }
  const country = flags.country?.trim().toLowerCase();
  if (country !== undefined && !/^[a-z]{2}$/.test(country)) {
    throw new CliError(`--country takes a two-letter country code such as KE (got ${JSON.stringify(flags.country)})`, { code: 'option.invalid' });
  }
  const operators = list.operators
    .filter((o) => country === undefined || o.country_alpha2.toLowerCase() === country)
    .sort((a, b) => a.country_alpha2.localeCompare(b.country_alpha2) || a.name.localeCompare(b.name) || a.id - b.id);
  return { ...list, operators };
}

/** A name whose spaces would be invisible (leading, trailing, doubled) is shown JSON-quoted. */
export function displayName(name: string): string {
  return name === '' || name !== name.trim() || /\s{2,}|[^\S ]/.test(name) ? JSON.stringify(name) : name;
}

export function renderText(list: OperatorList): string {
  const header = list.source === 'api'
    ? `# world operators from the API at ${list.from} (GET /api/world_operators)`
    : `# world operators from the bundled catalog (${list.from}); set --api-url or MENUCTL_API_URL for the live list`;
  const rows = list.operators.map((o) => [String(o.id), displayName(o.name), o.country_alpha2.toUpperCase(), o.hnis]);
  const head = ['ID', 'NAME', 'COUNTRY', 'NETWORK CODES'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  const footer = list.operators.length === 0 ? '(no operators match)\n' : `${list.operators.length} operator(s)\n`;
  return `${header}\n${line(head)}\n${rows.map((r) => `${line(r)}\n`).join('')}${footer}`;
}
