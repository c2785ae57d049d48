// Identity checks over the merged config: action names, app package names, parser categories
// within an action, pinned ids per kind, and organization_id across files. One Map pass each, so
// 5,000 actions cost no more than reading them.

import { actionAddress, appAddress, parserAddress } from '../../model/address.js';
import type { SourceLoc } from '../../model/types.js';
import { locOf, report, where, type CheckContext } from './context.js';

/** Addresses and locations are built only for clashes: 30,000 clean items cost one Map pass. */
interface Named { obj: object; key: string; address: () => string }

function uniqueBy(ctx: CheckContext, items: Named[], o: { code: string; what: string; field: string; fix: string }): void {
  const first = new Map<string, object>();
  for (const it of items) {
    const prev = first.get(it.key);
    if (!prev) { first.set(it.key, it.obj); continue; }
    const prevLoc: SourceLoc | undefined = locOf(ctx, prev, o.field);
    report(ctx, { code: o.code, loc: locOf(ctx, it.obj, o.field), address: it.address(),
      message: `${o.what} ${JSON.stringify(it.key)} is defined twice: here and at ${where(prevLoc)}. ${o.fix}` });
  }
}

export function checkDuplicates(ctx: CheckContext): void {
  const actions = ctx.files.flatMap((f) => f.actions);
  const apps = ctx.files.flatMap((f) => f.apps);
  uniqueBy(ctx, actions.map((a) => ({ obj: a, key: a.name, address: () => actionAddress(a.name) })),
    { code: 'semantic.duplicate-action', what: 'action', field: 'name', fix: 'Action names are identities: rename or remove one.' });
  uniqueBy(ctx, apps.map((a) => ({ obj: a, key: a.package_name, address: () => appAddress(a.package_name) })),
    { code: 'semantic.duplicate-app', what: 'app package_name', field: 'package_name', fix: 'Each app is identified by its package_name: remove one.' });
  for (const a of actions) {
    if (a.parsers.length < 2 || new Set(a.parsers.map((p) => p.category)).size === a.parsers.length) continue;
    uniqueBy(ctx, a.parsers.map((p) => ({ obj: p, key: p.category, address: () => parserAddress(a.name, p.category) })),
      { code: 'semantic.duplicate-parser', what: `parser category in action ${JSON.stringify(a.name)}:`, field: 'category', fix: 'A category identifies a parser within its action: rename or merge one.' });
  }
  // Pins are rare: filter before building anything per item.
  const pinned = (kind: string, list: { obj: object & { id?: string }; address: () => string }[]) =>
    uniqueBy(ctx, list.map((x) => ({ obj: x.obj, key: x.obj.id!, address: x.address })),
      { code: 'semantic.duplicate-id', what: `pinned ${kind} id`, field: 'id', fix: 'A live id can pin one resource only.' });
  pinned('action', actions.filter((a) => a.id !== undefined).map((a) => ({ obj: a, address: () => actionAddress(a.name) })));
  pinned('parser', actions.flatMap((a) => a.parsers.filter((p) => p.id !== undefined)
    .map((p) => ({ obj: p, address: () => parserAddress(a.name, p.category) }))));
  pinned('app', apps.filter((a) => a.id !== undefined).map((a) => ({ obj: a, address: () => appAddress(a.package_name) })));
  checkRenames(ctx);
  checkOrganization(ctx);
}

function checkRenames(ctx: CheckContext): void {
  const actions = ctx.files.flatMap((f) => f.actions);
  const renamed = actions.filter((a) => a.renamed_from !== undefined);
  const names = renamed.length > 0 ? new Set(actions.map((a) => a.name)) : new Set<string>();
  for (const a of renamed) {
    if (a.renamed_from === undefined) continue;
    const loc = locOf(ctx, a, 'renamed_from');
    if (a.renamed_from === a.name) {
      report(ctx, { code: 'semantic.renamed-from', loc, address: actionAddress(a.name),
        message: 'renamed_from equals the current name; remove renamed_from once the rename has been applied.' });
    } else if (names.has(a.renamed_from)) {
      report(ctx, { code: 'semantic.renamed-from', loc, address: actionAddress(a.name),
        message: `renamed_from names ${JSON.stringify(a.renamed_from)}, which is another action in this config; a rename needs the old name to be gone.` });
    }
  }
  for (const a of actions) {
    if (!a.parsers.some((p) => p.renamed_from !== undefined)) continue;
    const categories = new Set(a.parsers.map((p) => p.category));
    for (const p of a.parsers) {
      if (p.renamed_from === undefined) continue;
      if (p.renamed_from === p.category || categories.has(p.renamed_from)) {
        report(ctx, { code: 'semantic.renamed-from', loc: locOf(ctx, p, 'renamed_from'), address: parserAddress(a.name, p.category),
          message: p.renamed_from === p.category
            ? 'renamed_from equals the current category; remove renamed_from once the rename has been applied.'
            : `renamed_from names ${JSON.stringify(p.renamed_from)}, which is another parser of this action; a rename needs the old category to be gone.` });
      }
    }
  }
}

function checkOrganization(ctx: CheckContext): void {
  const setters = ctx.files.filter((f) => f.organization_id !== undefined);
  const first = setters[0];
  if (!first) return;
  const firstLoc = first.src.locate(['organization_id']);
  for (const f of setters.slice(1)) {
    if (f.organization_id === first.organization_id) continue;
    report(ctx, { code: 'semantic.organization-conflict', loc: f.src.locate(['organization_id']),
      message: `organization_id ${f.organization_id} conflicts with organization_id ${first.organization_id} at ${where(firstLoc)}. Set it in one file only.` });
  }
}
