// The action kind: a USSD menu path (name, root code, operators, steps). Parsers belong to it.

import { canonicalDesiredAction, canonicalLiveAction } from '../canonical.js';
import type { LiveAction, ResolvedAction } from '../types.js';
import type { Kind } from './kind.js';

export const action: Kind<LiveAction, ResolvedAction> = {
  type: 'action',
  level: 0,
  keyLabel: 'name',
  key: (r) => r.name,
  liveIn: (s) => s.actions,
  canonicalLive: (a) => canonicalLiveAction(a),
  canonical: (spec, nameOf) => canonicalDesiredAction(spec, nameOf),
  api: {
    get: (c, id) => c.getAction(id),
    update: (c, id, spec) => c.updateAction(id, spec),
    archive: (c, id) => c.archiveAction(id),
    restore: (c, id) => c.restoreAction(id),
  },
};
