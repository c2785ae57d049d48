// `apply --plan FILE`: a saved plan is carried out exactly, or refused when it is stale.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/types.js';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, writeRequests, type TestServer } from '../helpers/server.js';
import { configYaml, envFor, tempDir, writeConfig } from './cli-world.js';
import { census, clientFor } from './world.js';

let server: TestServer;
let org = 200;
let token: string;
let client: ApiClient;
let dir: string;

beforeAll(async () => { server = await startTestServer(); });
afterAll(async () => { await server.close(); });
beforeEach(async () => {
  org++;
  token = await server.mintToken(org);
  client = clientFor(server, { token });
  dir = tempDir();
});

const cli = (args: string[], t = token) => runCli(args, { env: envFor(server, t), cwd: dir });

async function savedPlan(actions: Parameters<typeof configYaml>[0]): Promise<void> {
  writeConfig(dir, configYaml(actions));
  // An absolute path: `plan --out` resolves against process.cwd() rather than the CLI's cwd (reported).
  const r = await cli(['plan', '--out', join(dir, 'plan.json')]);
  expect(r.code, r.stderr).toBe(0);
}

describe('apply --plan FILE', () => {
  it('carries out a fresh saved plan, checked against the config', async () => {
    await savedPlan([{ name: 'A', parsers: ['p'] }]);
    const r = await cli(['apply', '--plan', 'plan.json', '--yes', 'menuctl.yaml']);
    expect(r.code, r.stderr).toBe(0);
    expect((await census(client)).activeParsers).toBe(1);
    expect((await cli(['apply', '--yes'])).stdout).toContain('No changes');
  });

  it('does not print a saved plan again with --yes (it was reviewed when made): one line says what it carries out', async () => {
    await savedPlan([{ name: 'A', parsers: ['p'] }]);
    const r = await cli(['apply', '--plan', 'plan.json', '--yes', 'menuctl.yaml']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Carrying out the saved plan plan\.json in organization \d+:\nPlan: 2 to create, 0 to update, 0 to archive, 0 to restore\.\n✓ create action\["A"\]/);
    expect(r.stdout).not.toContain('menuctl will make');
  });

  it('refuses a plan made stale by an out-of-band edit, naming every stale address', async () => {
    writeConfig(dir, configYaml([{ name: 'A', parsers: ['p'] }, { name: 'B' }]));
    await cli(['apply', '--yes']);
    await savedPlan([{ name: 'A', parsers: ['p', 'q'], rootCode: '*155#' }, { name: 'C' }]);
    // Someone edits A by hand and creates C between plan and apply.
    const a = (await client.listActions()).find((x) => x.name === 'A')!;
    await client.updateAction(a.id, { name: 'A', root_code: '*199#', transport_type: 'ussd', operator_ids: [1662], steps: [] });
    await client.createAction({ name: 'C', root_code: '*1#', transport_type: 'ussd', operator_ids: [1662], steps: [] });
    server.resetStats();
    const r = await cli(['apply', '--plan', 'plan.json', '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is stale');
    expect(r.stderr).toContain('action["A"]: changed since the plan was made');
    expect(r.stderr).toContain('action["C"]: a live resource with this identity appeared');
    // Only what moved is named: the create of A's new parser q is still valid.
    expect(r.stderr).not.toContain('parser["q"]');
    expect(r.stderr.split('\n').filter((l) => l.startsWith('  - '))).toHaveLength(2);
    expect(writeRequests(server)).toBe(0);
  });

  it('refuses when the config moved on since the plan', async () => {
    await savedPlan([{ name: 'A' }]);
    writeConfig(dir, configYaml([{ name: 'A', parsers: ['new'] }]));
    const r = await cli(['apply', '--plan', 'plan.json', '--yes', 'menuctl.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the config changed since the plan was made');
    expect((await client.listActions()).length).toBe(0);
  });

  it('refuses a plan made for another organization', async () => {
    await savedPlan([{ name: 'A' }]);
    const other = await server.mintToken(org + 1000);
    server.resetStats();
    const r = await cli(['apply', '--plan', 'plan.json', '--yes'], other);
    expect(r.code).toBe(1);
    expect(writeRequests(server)).toBe(0);
    expect(r.stderr).toContain(`made for organization ${org}, but the credentials act for organization ${org + 1000}`);
  });

  it('says clearly what is wrong with a missing, corrupt or foreign plan file', async () => {
    const missing = await cli(['apply', '--plan', 'nope.json', '--yes']);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringMatching(/plan file .*nope\.json not found; make a new one/) });
    writeFileSync(join(dir, 'bad.json'), '{"format_version": 1, "changes": [');
    const corrupt = await cli(['apply', '--plan', 'bad.json', '--yes']);
    expect(corrupt).toMatchObject({ code: 1, stderr: expect.stringMatching(/bad\.json is not valid JSON/) });
    writeFileSync(join(dir, 'v2.json'), JSON.stringify({ format_version: 2, changes: [] }));
    const foreign = await cli(['apply', '--plan', 'v2.json', '--yes']);
    expect(foreign).toMatchObject({ code: 1, stderr: expect.stringMatching(/format_version 2 is not supported/) });
    // A directory (a tab-completed `plans/`): the reason in words, not the errno.
    mkdirSync(join(dir, 'plans'));
    const directory = await cli(['apply', '--plan', 'plans', '--yes']);
    expect(directory.code).toBe(1);
    expect(directory.stderr).toMatch(/cannot read plan file \S*plans \(it is a directory\); --plan takes the file written by `menuctl plan --out FILE`/);
    expect(directory.stderr).not.toContain('EISDIR');
  });

  it('refuses flags that shape a plan together with --plan', async () => {
    await savedPlan([{ name: 'A' }]);
    const r = await cli(['apply', '--plan', 'plan.json', '--yes', '--prune']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--prune shapes a plan when it is made: pass it to');
    expect(JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')).format_version).toBe(1);
  });
});
