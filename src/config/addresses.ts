// Resource address of a location in the raw config (for diagnostics found before the model exists).

import { actionAddress, appAddress, parserAddress } from '../model/address.js';
import type { Segment } from './source.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function itemAt(root: unknown, key: string, index: Segment | undefined): Obj | undefined {
  if (!isObj(root) || index === undefined) return undefined;
  const list = root[key];
  const item = Array.isArray(list) ? list[Number(index)] : undefined;
  return isObj(item) ? item : undefined;
}

/** action["X"], action["X"].parser["y"] or app["p"] for a path into the raw file, when named. */
export function addressOfPath(root: unknown, path: readonly Segment[]): string | undefined {
  if (path[0] === 'apps') {
    const app = itemAt(root, 'apps', path[1]);
    return typeof app?.package_name === 'string' ? appAddress(app.package_name) : undefined;
  }
  if (path[0] !== 'actions') return undefined;
  const action = itemAt(root, 'actions', path[1]);
  if (typeof action?.name !== 'string') return undefined;
  if (path[2] === 'parsers') {
    const parser = itemAt(action, 'parsers', path[3]);
    if (typeof parser?.category === 'string') return parserAddress(action.name, parser.category);
  }
  return actionAddress(action.name);
}
