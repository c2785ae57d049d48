// menuctl import ADDRESS ID [PATH...] (CONTRACT.md "State", Terraform's import): the config's
// ADDRESS is live resource ID from now on. Only reads reach the API. The record gets the id,
// and, for an action, step details marked unknown (the API shows only values): a plan never
// sends details over them unless the action is named in --resend (plan/unknown-details.ts).

import { parseAddress } from '../model/address.js';
import { kindOf } from '../model/kinds/index.js';
import { importResource, wantedFor } from '../engine/import.js';
import type { CliContext } from './context.js';
import { checkOrganization, connect, type ConnectionFlags } from './connect.js';
import { selectEnvironment, type EnvFlags } from './environment.js';
import { CliError, EXIT } from './exit.js';
import { loadDesired } from './pipeline.js';
import { loadRecord, openRecordStore, type RecordFlags } from './record.js';

export interface ImportFlags extends ConnectionFlags, RecordFlags, EnvFlags {}

const q = JSON.stringify;

export async function runImport(address: string, idArg: string, paths: string[], flags: ImportFlags, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const id = idArg.trim();
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw new CliError(`${q(idArg)} is not a live id: give the id the API shows (letters, digits, - and _)`, { code: 'import.id-invalid' });
  const parsed = parseAddress(address);
  if (parsed === null) throw new CliError(`${q(address)} is not an address: write action["NAME"] or app["PACKAGE"]`, { code: 'address.invalid' });
  const kind = kindOf(parsed.type);
  // Import records an id: a kind the record keeps nothing of (a parser, matched under its owner) is not imported.
  if (kind.recordedIn === undefined) {
    const t = parsed.type;
    throw new CliError(`${address}: ${t}s are not imported: they are matched by ${kind.keyLabel} under their ${kind.ownedBy}, and the API shows every ${t} field. To tie it to live ${t} ${id}, write \`id: "${id}"\` on it in the config`, { code: 'import.not-recorded-kind' });
  }
  const { environment, config } = await selectEnvironment(paths, flags, io);
  const { desired } = await loadDesired(paths, io, { environment: environment?.name, config });
  const wanted = wantedFor(desired, parsed.type, address);
  if (!wanted) throw new CliError(`${address} is not in the config${environment ? ` for environment ${environment.name}` : ''}: add it first (import adopts a resource the config declares)`, { code: 'import.not-in-config' });

  const conn = connect(flags, io, environment);
  const store = await openRecordStore(paths, flags, io).catch(async (err) => {
    await conn.client.close();
    throw err;
  });
  try {
    await checkOrganization(conn.client, conn.organizationGuard, desired.organization_id, conn.environment);
    const record = await loadRecord(store, {
      client: conn.client, baseUrl: conn.baseUrl, io, environment: conn.environment, lock: { command: `import ${address}`, timeoutMs: flags.lockTimeout ?? 0 },
    });
    const done = await importResource(address, id, wanted, { client: conn.client, record });
    switch (done.kind) {
      case 'not-found':
        throw new CliError(`there is no live ${parsed.type} with id ${q(id)} in this organization: check the id (the API's list or the create's answer shows it). Nothing was recorded.`, { code: 'import.not-found' });
      case 'other-resource':
        throw new CliError(
          `live ${parsed.type} ${q(id)} has ${done.label} ${q(done.live)}, not ${q(done.wanted)}: it is another resource. If the config's ${address} really is that one ` +
            `(a rename), pin it with \`id: "${id}"\` in the config instead. Nothing was recorded.`,
          { code: 'import.other-resource' },
        );
      case 'already-recorded':
        io.stdout.write(`${address} is already recorded as id ${id} in ${record.shown}: nothing to do.\n`);
        return EXIT.OK;
      case 'recorded-as-other':
        throw new CliError(`${record.shown} already holds ${address} as live id ${done.id}, which exists: menuctl manages that one. If ${id} is the one to manage instead, run \`menuctl state rm '${address}'\` first. Nothing was recorded.`, { code: 'import.already-recorded' });
      case 'recorded-elsewhere':
        throw new CliError(`${record.shown} already holds live ${parsed.type} ${id} as ${done.holder}: one live resource, one address. Run \`menuctl state rm '${done.holder}'\` first if ${address} is right. Nothing was recorded.`, { code: 'import.recorded-elsewhere' });
      case 'imported':
        break;
    }
    const was = done.wasInFlight ? ' (its create was in flight in the record: resolved)' : '';
    const unknown = kind.hiddenDetails !== undefined
      ? ' Its step kinds, expect texts, descriptions and operator ids are recorded as unknown: a plan never sends the config\'s over them unless you name it in `--resend`.'
      : '';
    io.stdout.write(`Imported ${address} as live id ${id}${was} into ${record.shown}.${unknown} Run \`menuctl plan\` to see how it compares with the config.\n`);
    return EXIT.OK;
  } finally {
    try {
      await store.close();
    } finally {
      await conn.client.close();
    }
  }
}
