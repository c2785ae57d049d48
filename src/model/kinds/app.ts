// The app kind: an Android app that receives results by webhook. Created with secrets.

import { canonicalApp } from '../canonical.js';
import type { AppSpec, LiveApp } from '../types.js';
import type { Kind } from './kind.js';

export const app: Kind<LiveApp, AppSpec> = {
  type: 'app',
  level: 0,
  keyLabel: 'package_name',
  key: (r) => r.package_name,
  liveIn: (s) => s.apps,
  canonicalLive: (a) => canonicalApp(a),
  canonical: (spec) => canonicalApp(spec),
  api: {
    get: (c, id) => c.getApp(id),
    update: (c, id, spec) => c.updateApp(id, spec),
    archive: (c, id) => c.archiveApp(id),
    restore: (c, id) => c.restoreApp(id),
  },
};
