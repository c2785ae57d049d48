// `plan --prune` lists an action it archives once, under "archive", not again as unmanaged
// (text and markdown); without --prune the same action is listed as unmanaged, left alone.
import { describe, expect, it } from 'vitest';
import { configYaml, useCliWorld, writeConfig } from '../apply/cli-world.js';

const world = useCliWorld(700);

async function withOneOrphan(): Promise<string> {
  const gone = await world.client.createAction({ name: 'Gone', root_code: '*9#', transport_type: 'ussd', operator_ids: [1662], steps: [] });
  writeConfig(world.dir, configYaml([{ name: 'Kept' }]));
  return gone.id;
}

const count = (text: string, s: string) => text.split(s).length - 1;

describe('plan --prune and unmanaged resources', () => {
  it('text: an archived action appears once, and no Unmanaged section is left empty', async () => {
    const id = await withOneOrphan();
    const r = await world.cli(['plan', '--prune']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/- archive\s+action\["Gone"\]/);
    expect(count(r.stdout, `(id ${id})`)).toBe(1);
    expect(r.stdout).not.toContain('Unmanaged');
  });

  it('markdown: an archived action appears once', async () => {
    const id = await withOneOrphan();
    const r = await world.cli(['plan', '--prune', '--format', 'markdown']);
    expect(r.stderr).toBe('');
    expect(count(r.stdout, id)).toBe(1);
    expect(r.stdout).not.toContain('**Unmanaged**');
  });

  it('without --prune the action is still listed as unmanaged, left alone', async () => {
    const id = await withOneOrphan();
    const text = await world.cli(['plan']);
    expect(text.stdout).toContain('Unmanaged (not in the configuration; left alone, archived only with --prune):');
    expect(text.stdout).toContain(`? action["Gone"] (id ${id})`);
    const md = await world.cli(['plan', '--format', 'markdown']);
    expect(md.stdout).toContain(`- <code>action["Gone"]</code> (id <code>${id}</code>)`);
  });

  it('json keeps the archived action in `unmanaged` (data for scripts)', async () => {
    const id = await withOneOrphan();
    const doc = JSON.parse((await world.cli(['plan', '--prune', '--format', 'json'])).stdout);
    expect(doc.unmanaged.map((u: { id: string }) => u.id)).toEqual([id]);
    expect(doc.changes.filter((c: { op: string }) => c.op === 'archive').map((c: { id: string }) => c.id)).toEqual([id]);
  });
});
