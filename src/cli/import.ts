// menuctl import ADDRESS ID [PATH...] (CONTRACT.md "State", Terraform's import): the config's
// ADDRESS is live resource ID from now on. Only reads reach the API. The record gets the id,
// and, for an action, step details marked unknown (the API shows only values): a plan never
// sends details over them unless the action is named in --resend (plan/unknown-details.ts).

import { appAddress, actionAddress, parseAddress } from '../model/address.js';
import { RecordKeeper, scopeOf } from '../state/record-file.js';
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
  if (parsed.type === 'parser') {
    throw new CliError(`${address}: parsers are not imported: they are matched by category under their action, and the API shows every parser field. To tie it to live parser ${id}, write \`id: "${id}"\` on it in the config`, { code: 'import.parser' });
  }
  const environment = await selectEnvironment(paths, flags, io);
  const { desired } = await loadDesired(paths, io, environment?.name);
  const wanted = parsed.type === 'action'
    ? desired.actions.find((a) => actionAddress(a.name) === address)
    : desired.apps.find((a) => appAddress(a.package_name) === address);
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
    const live = parsed.type === 'action' ? await conn.client.getAction(id) : await conn.client.getApp(id);
    if (live === null) throw new CliError(`there is no live ${parsed.type} with id ${q(id)} in this organization: check the id (the API's list or the create's answer shows it). Nothing was recorded.`, { code: 'import.not-found' });
    const liveKey = 'name' in live && parsed.type === 'action' ? (live as { name: string }).name : (live as { package_name: string }).package_name;
    const key = parsed.type === 'action' ? (wanted as { name: string }).name : (wanted as { package_name: string }).package_name;
    const renamedFrom = 'renamed_from' in wanted ? wanted.renamed_from : undefined;
    if (liveKey !== key && liveKey !== renamedFrom) {
      const label = parsed.type === 'action' ? 'name' : 'package_name';
      throw new CliError(
        `live ${parsed.type} ${q(id)} has ${label} ${q(liveKey)}, not ${q(key)}: it is another resource. If the config's ${address} really is that one ` +
          `(a rename), pin it with \`id: "${id}"\` in the config instead. Nothing was recorded.`,
        { code: 'import.other-resource' },
      );
    }
    const scope = scopeOf(record);
    const line = parsed.type === 'action' ? scope?.actions.get(address) : scope?.apps.get(address);
    if (line?.id === id) {
      io.stdout.write(`${address} is already recorded as id ${id} in ${record.shown}: nothing to do.\n`);
      return EXIT.OK;
    }
    if (line?.id) {
      const other = parsed.type === 'action' ? await conn.client.getAction(line.id) : await conn.client.getApp(line.id);
      if (other !== null) {
        throw new CliError(`${record.shown} already holds ${address} as live id ${line.id}, which exists: menuctl manages that one. If ${id} is the one to manage instead, run \`menuctl state rm '${address}'\` first. Nothing was recorded.`, { code: 'import.already-recorded' });
      }
    }
    const table = parsed.type === 'action' ? scope?.actions : scope?.apps;
    const holder = [...(table ?? [])].find(([other, l]) => other !== address && l.id === id)?.[0];
    if (holder) throw new CliError(`${record.shown} already holds live ${parsed.type} ${id} as ${holder}: one live resource, one address. Run \`menuctl state rm '${holder}'\` first if ${address} is right. Nothing was recorded.`, { code: 'import.recorded-elsewhere' });

    const keeper = new RecordKeeper(record);
    if (parsed.type === 'action') await keeper.actionIs(address, id, 'unknown');
    else await keeper.appIs(address, id);
    const was = line?.pending === 'create' ? ' (its create was in flight in the record: resolved)' : '';
    const unknown = parsed.type === 'action'
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
