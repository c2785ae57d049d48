// What `menuctl secrets pull` wrote, read back by the action only to register each value with the
// runner (`::add-mask::`): the file is for the job's next step, and nothing it holds may reach the
// log of that step or any other in clear.

/** The token and webhook secret values in a secrets file, in either format `secrets pull` writes. */
export function secretValues(text: string): string[] {
  const values = new Set<string>();
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    // --format env: `MENUCTL_APP_<PACKAGE>_TOKEN=...`, `..._WEBHOOK_SECRET=...`; the ids are not secret.
    for (const line of text.split('\n')) {
      const m = /^[A-Z0-9_]+_(?:TOKEN|WEBHOOK_SECRET)=(.*)$/.exec(line);
      if (m?.[1]) values.add(m[1]);
    }
    return [...values];
  }
  // --format json: entries keyed by address, or by environment section then address.
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    for (const [key, v] of Object.entries(value)) {
      if ((key === 'token' || key === 'webhook_secret') && typeof v === 'string' && v !== '') values.add(v);
      else visit(v);
    }
  };
  visit(doc);
  return [...values];
}
