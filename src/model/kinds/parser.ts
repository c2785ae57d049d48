// The parser kind: a regex that classifies a reply to its action. Nested: it belongs to an action.

import { canonicalParser } from '../canonical.js';
import type { LiveParser, ParserSpec } from '../types.js';
import type { Kind } from './kind.js';

export const parser: Kind<LiveParser, ParserSpec> = {
  type: 'parser',
  level: 1,
  keyLabel: 'category',
  key: (r) => r.category,
  parentId: (p) => p.action_id,
  liveIn: (s) => s.parsers,
  canonicalLive: (p) => canonicalParser(p),
  canonical: (spec) => canonicalParser(spec),
  api: {
    get: (c, id) => c.getParser(id),
    update: (c, id, spec) => c.updateParser(id, spec),
    archive: (c, id) => c.archiveParser(id),
    restore: (c, id) => c.restoreParser(id),
  },
};
