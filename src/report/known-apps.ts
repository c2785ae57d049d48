// Why apply refuses app creates the secrets file holds as live (engine/known-apps.ts), in words.

import type { KnownApp } from '../engine/known-apps.js';

export function knownAppsMessage(known: readonly KnownApp[], secretsFile: string): string {
  const lines = known.map((k) => `  ${k.address}: id ${k.id}${k.archived ? ' (archived)' : ''}`);
  return [
    `the plan creates ${known.length === 1 ? 'an app' : `${known.length} apps`} that ${secretsFile} holds as live, with the same package_name:`,
    ...lines,
    'The applied-state record (menuctl.lock) does not tie them to these ids (deleted, not committed, or a create left in flight?), and this API cannot list apps,',
    'so creating them would make a second app each. Pin each with `id: "N"` in the config (an archived one is then restored),',
    `or restore the record; to create a new app anyway, first remove its entry from ${secretsFile}. Nothing was changed.`,
  ].join('\n');
}
