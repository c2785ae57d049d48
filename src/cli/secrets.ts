// menuctl secrets pull (CONTRACT.md "Ownership"): the API returns an app's token and webhook
// secret on GET /api/apps/{id}, so the record's ids are all it takes to hand them to a secret
// store. Written to --out only (mode 0600, atomically); the output names apps, never a secret.

import { resolve } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { readSecretsFile, secretsSection } from '../apply/secrets-file.js';
import { pullSecrets, type Pulled } from '../engine/secrets.js';
import type { CliContext } from './context.js';
import { checkOrganization, connect, type ConnectionFlags } from './connect.js';
import { selectEnvironment, type EnvFlags } from './environment.js';
import { CliError, EXIT } from './exit.js';
import { readRecord, type RecordFlags } from './record.js';
import { warnIfCommittable } from './secrets-tracked.js';
import { inert } from '../text/inert.js';

export interface SecretsFlags extends ConnectionFlags, RecordFlags, EnvFlags {
  out: string;
  format: 'json' | 'env';
}

export async function runSecretsPull(paths: string[], flags: SecretsFlags, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const out = resolve(io.cwd, flags.out);
  const { environment } = await selectEnvironment(paths, flags, io);
  const conn = connect(flags, io, environment);
  let pulled: Pulled[] = [];
  let missing: string[] = [];
  let mismatched: string[] = [];
  let shown: string;
  try {
    await checkOrganization(conn.client, conn.organizationGuard, conn.environmentOrganization, conn.environment);
    const record = await readRecord(paths, flags, { client: conn.client, baseUrl: conn.baseUrl, io, environment: conn.environment });
    shown = record.shown;
    const got = await pullSecrets(conn.client, record);
    pulled = got.pulled;
    missing = got.missing.map((m) => `${m.address} (id ${m.id})`);
    mismatched = got.mismatched.map((m) => `Error: the record ties ${inert(m.address)} to app id ${inert(m.id)}, but that app is ${inert(m.live)}: its token was not written under either name. `
      + `Fix the record: \`menuctl state rm '${inert(m.address)}'\`, then \`menuctl import '${inert(m.address)}' ID\` with its right id.`);
  } finally {
    await conn.client.close();
  }
  if (pulled.length === 0 && missing.length === 0 && mismatched.length === 0) {
    throw new CliError(`${shown} holds no app for this API${environment ? ` (environment ${environment.name})` : ''}: nothing to pull. Apps menuctl created or imported are recorded there.`, { code: 'secrets.no-apps' });
  }
  const section = secretsSection(conn.environment);
  await writeFileAtomic(out, flags.format === 'env' ? envText(pulled) : await jsonText(out, pulled, section), { mode: 0o600 });
  await warnIfCommittable(out, io);
  io.stdout.write(`Wrote the secrets of ${pulled.length} app${pulled.length === 1 ? '' : 's'} to ${flags.out} (mode 0600): ${pulled.map((p) => p.address).join(', ') || 'none'}.\n`);
  for (const m of missing) io.stderr.write(`Error: ${m} is in the record but not live (archived apps keep their id; a deleted one is gone): \`menuctl state rm\` it if it is gone for good.\n`);
  for (const m of mismatched) io.stderr.write(`${m}\n`);
  return missing.length > 0 || mismatched.length > 0 ? EXIT.ERROR : EXIT.OK;
}

/**
 * The secrets file's own shape (apply --secrets-file reads it). With environments, this one's
 * section is replaced and the file's other sections kept, so one file serves them all.
 */
async function jsonText(out: string, pulled: Pulled[], section: string | undefined): Promise<string> {
  const entries: Record<string, { id: string; token: string; webhook_secret: string | null }> = {};
  for (const p of pulled) entries[p.address] = { id: p.id, token: p.token, webhook_secret: p.webhook_secret };
  if (section === undefined) return `${JSON.stringify(entries, null, 2)}\n`;
  let doc: Record<string, unknown> = {};
  try {
    doc = (await readSecretsFile(out)) as unknown as Record<string, unknown>;
  } catch (err) {
    throw new CliError(`${(err as Error).message}; nothing was written`, { code: 'secrets-file.unreadable' });
  }
  doc[section] = entries;
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** `MENUCTL_APP_<PACKAGE>_TOKEN=...` lines: the package name upper-cased, other characters as `_`. */
function envText(pulled: Pulled[]): string {
  const lines: string[] = [];
  for (const p of pulled) {
    const key = `MENUCTL_APP_${p.address.replace(/^app\["|"\]$/g, '').toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
    lines.push(`${key}_ID=${p.id}`, `${key}_TOKEN=${p.token}`);
    if (p.webhook_secret !== null) lines.push(`${key}_WEBHOOK_SECRET=${p.webhook_secret}`);
  }
  return `${lines.join('\n')}\n`;
}
