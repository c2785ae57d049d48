// completeSecrets reads each app and its token from one answer and writes the token only under
// the address of the app it belongs to: a record whose ids were swapped (by hand, a bad merge)
// must not put one app's token under another's name in the secrets file.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completeSecrets } from '../../src/apply/complete-secrets.js';
import { FakeClient } from './fake-client.js';

describe('completeSecrets', () => {
  it('writes a token under its own app\'s address, and refuses an id that is another app', async () => {
    const client = new FakeClient();
    const [a, b] = await Promise.all([
      client.createApp({ name: 'A', package_name: 'com.a', webhook_url: null } as never),
      client.createApp({ name: 'B', package_name: 'com.b', webhook_url: null } as never),
    ]);
    const file = join(mkdtempSync(join(tmpdir(), 'menuctl-complete-')), 'secrets.json');
    const out = await completeSecrets(client, file, [
      { address: 'app["com.a"]', id: a.app.id },
      { address: 'app["com.b"]', id: a.app.id },
    ]);
    expect(out.written).toEqual(['app["com.a"]']);
    expect(out.failed).toEqual([{ address: 'app["com.b"]', message: expect.stringContaining(`app id ${a.app.id} is app["com.a"], not app["com.b"]`) }]);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(doc)).toEqual(['app["com.a"]']);
    expect(JSON.stringify(doc)).not.toContain(`tok-${b.app.id}`);
    expect(doc['app["com.a"]'].token).toBe(`tok-${a.app.id}-SECRET`);
  });
});
