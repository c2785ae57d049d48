// Where the API cannot list apps (serve --spec-only), nothing proves an app absent: a record that
// lost lines must not turn into duplicate apps (issue 36 item 4), and an app added to the config
// after an export or a first apply is planned with a warning naming `id:` and `menuctl import`
// (issue 34 item 1). Each case is what a team hits: a record rewound (an older commit of the
// state branch), replaced, or never written for an organization that has things already.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, writeRequests, type TestServer } from '../helpers/server.js';
import { configYaml, tempDir, writeConfig } from './cli-world.js';

describe('app creates against an API that cannot list apps', () => {
  let server: TestServer;
  let org = 700;
  beforeAll(async () => { server = await startTestServer({ specOnly: true }); });
  afterAll(async () => { await server.close(); });

  async function workspace(apps: string[]) {
    const dir = tempDir();
    const token = await server.mintToken(++org);
    const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token };
    writeConfig(dir, configYaml([{ name: 'Balance' }, { name: 'Airtime' }], { apps }));
    return { dir, cli: (args: string[]) => runCli(args, { env, cwd: dir }) };
  }

  const posts = () => server.stats().byRoute['POST /api/apps'] ?? 0;

  it('a record rewound to before the apply (lines lost): the app create is held back, the rest goes on; --recreate confirms it', async () => {
    const w = await workspace(['com.example.wallet']);
    const empty = readFileSync(join(w.dir, 'menuctl.yaml'), 'utf8');
    expect((await w.cli(['apply', '--yes', '--discard-secrets'])).code).toBe(0);
    // The record as it was before that apply: gone (a branch rewound, a file not committed).
    rmSync(join(w.dir, 'menuctl.lock'));
    writeFileSync(join(w.dir, 'menuctl.yaml'), empty);
    server.resetStats();
    const plan = await w.cli(['plan']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/looks incomplete for this API \(2 action\(s\) of the config, action\["\w+"\] first, exist live with no line in it\), so app\["com\.example\.wallet"\] may exist/);
    expect(plan.stdout).toContain("`menuctl import 'app[\"com.example.wallet\"]' ID`");
    expect(plan.stdout).not.toMatch(/\+ create .*app\[/);
    const apply = await w.cli(['apply', '--yes', '--discard-secrets']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('Error[plan.create-unverified]');
    expect(posts()).toBe(0);
    const confirmed = await w.cli(['apply', '--yes', '--discard-secrets', '--recreate', 'app["com.example.wallet"]']);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(posts()).toBe(1);
  });

  it('a recorded app id the API does not know: every app create is held back', async () => {
    const w = await workspace(['com.example.one']);
    expect((await w.cli(['apply', '--yes', '--discard-secrets'])).code).toBe(0);
    const record = join(w.dir, 'menuctl.lock');
    writeFileSync(record, readFileSync(record, 'utf8').replace(/("address":"app\[\\"com\.example\.one\\"\]","id":")\d+"/, '$1987654"'));
    writeConfig(w.dir, configYaml([{ name: 'Balance' }, { name: 'Airtime' }], { apps: ['com.example.one', 'com.example.two'] }));
    server.resetStats();
    const apply = await w.cli(['apply', '--yes', '--discard-secrets']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('it records app id "987654" for app["com.example.one"], which the API does not know');
    expect(apply.stderr).toMatch(/Error\[plan\.create-unverified\].*app\["com\.example\.two"\]/);
    expect(writeRequests(server)).toBe(0);
  });

  it('a complete record: a new app is planned with a warning naming id: and menuctl import, and created once', async () => {
    const w = await workspace([]);
    expect((await w.cli(['apply', '--yes', '--discard-secrets'])).code).toBe(0);
    writeConfig(w.dir, configYaml([{ name: 'Balance' }, { name: 'Airtime' }], { apps: ['com.example.added'] }));
    server.resetStats();
    const plan = await w.cli(['plan']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/\+ create .*app\["com\.example\.added"\]/);
    expect(plan.stdout).toContain('the API cannot list apps, so nothing shows');
    expect(plan.stdout).toMatch(/nothing shows whether app\["com\.example\.added"\] exists already.*pin it with `id:` or adopt it with `menuctl import 'app\["com\.example\.added"\]' ID`/s);
    const apply = await w.cli(['apply', '--yes', '--discard-secrets']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(posts()).toBe(1);
  });

  it('a record path that is a directory is an error, not an empty record', async () => {
    const w = await workspace(['com.example.dir']);
    rmSync(join(w.dir, 'menuctl.lock'), { force: true });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(w.dir, 'menuctl.lock'));
    server.resetStats();
    const apply = await w.cli(['apply', '--yes', '--discard-secrets']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toMatch(/menuctl\.lock.*is a directory, not a regular file/);
    expect(writeRequests(server)).toBe(0);
  });

  it('export says how to tie an app it could not see to its live id: id: or menuctl import', async () => {
    const w = await workspace(['com.example.exported']);
    expect((await w.cli(['apply', '--yes', '--discard-secrets'])).code).toBe(0);
    const out = await w.cli(['export', '--out', 'exported', '--force']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain('menuctl import \'app["PACKAGE"]\' ID');
    expect(out.stderr).toContain('`id: "ID"`');
  });

  it('secrets pull checks who each recorded id is: ids swapped in the record write no token under the other name', async () => {
    const w = await workspace(['com.example.alpha', 'com.example.beta']);
    expect((await w.cli(['apply', '--yes', '--discard-secrets'])).code).toBe(0);
    const record = join(w.dir, 'menuctl.lock');
    const text = readFileSync(record, 'utf8');
    const idOf = (pkg: string) => new RegExp(`"address":"app\\[\\\\"${pkg.replace(/\./g, '\\.')}\\\\"\\]","id":"(\\d+)"`).exec(text)![1]!;
    const [a, b] = [idOf('com.example.alpha'), idOf('com.example.beta')];
    writeFileSync(record, text.replace(`"id":"${a}"`, '"id":"SWAP"').replace(`"id":"${b}"`, `"id":"${a}"`).replace('"id":"SWAP"', `"id":"${b}"`));
    const pulled = await w.cli(['secrets', 'pull', '--out', 'secrets.json']);
    expect(pulled.code).toBe(1);
    expect(pulled.stderr).toContain(`the record ties app["com.example.alpha"] to app id ${b}, but that app is app["com.example.beta"]`);
    expect(pulled.stderr).toContain(`the record ties app["com.example.beta"] to app id ${a}, but that app is app["com.example.alpha"]`);
    // Neither token went anywhere: the file holds no app.
    expect(JSON.parse(readFileSync(join(w.dir, 'secrets.json'), 'utf8'))).toEqual({});
  });

  it('a secret in a step\'s expect is refused before anything is sent: the record would keep it in plain text', async () => {
    const dir = tempDir();
    const token = await server.mintToken(++org);
    writeConfig(dir, configYaml([{ name: 'Leaky' }]).replace('      - pin', '      - { press: 2, expect: "${PIN_SECRET}" }'));
    const secret = 'sk_live_0123456789abcdef';
    server.resetStats();
    const r = await runCli(['apply', '--yes'], { env: { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token, MENUCTL_VAR_PIN_SECRET: secret }, cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the applied-state record menuctl.lock would keep a secret\'s value in plain text: action["Leaky"]\'s steps hold the value of MENUCTL_VAR_PIN_SECRET');
    expect(r.stdout + r.stderr).not.toContain(secret);
    expect(writeRequests(server)).toBe(0);
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(dir, 'menuctl.lock')) ? readFileSync(join(dir, 'menuctl.lock'), 'utf8') : '').not.toContain(secret);
  });
});
