// Seeds a reference server's SQLite database directly (no HTTP, one transaction): `actions`
// actions of three steps in organization 1, and one action in organization 2 whose public id is
// the probe a second tenant reads. For the server benches that need a big tenant beside a small one.
// `dist`: the build whose server/ modules write it (another build's, to compare stores).

import { join } from 'node:path';

export async function seedTwoOrganizations({ dist, data, actions }) {
  const { openDb, Statements } = await import(join(dist, 'server/db.js'));
  const { ActionStore } = await import(join(dist, 'server/store-actions.js'));
  const db = openDb(data);
  const store = new ActionStore(new Statements(db));
  const steps = [0, 1, 2].map((i) => ({ is_param: false, convert_val_to_num: false, value: String(i + 1), expected_text: 'My account', description: '' }));
  db.transaction(() => {
    for (let i = 0; i < actions; i++) {
      store.create(1, { name: `Action ${i}`, root_code: '*144#', transport_type: 'ussd', operator_ids: [2172, 2173], steps });
    }
  })();
  const probeId = store.create(2, { name: 'Org B action', root_code: '*1#', transport_type: 'ussd', operator_ids: [2172], steps }).public_id;
  return { db, store, probeId };
}
