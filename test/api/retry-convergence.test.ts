// Issue 10, item 12: under 30% injected 503s, 20% connection resets after the write and a
// 10/s rate limit, `apply` of 40 actions x 2 parsers converges in one run (nothing missing,
// nothing duplicated, counted afterwards through a fault-free server on the same database),
// and `plan` succeeds on every run. The CLI runs in-process with its default retry policy and
// real waits (Retry-After is honoured): nothing is faked but the seed of the fault draws.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { census, clientFor } from '../apply/world.js';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FAULTS = { failRate: 0.3, resetRate: 0.2, rateLimit: 10 };
const dir = mkdtempSync(join(tmpdir(), 'menuctl-retry-'));
const config = join(dir, 'menuctl.yaml');
let faulty: TestServer | undefined;

function bulkConfig(actions: number, parsers: number): string {
  const lines = ['version: 1', 'actions:'];
  for (let i = 0; i < actions; i++) {
    lines.push(`  - name: A${String(i).padStart(3, '0')}`, '    root_code: "*144#"', '    transport_type: ussd',
      '    operators: [2172]', '    steps: [{ press: 1 }, pin]', '    parsers:');
    for (let j = 0; j < parsers; j++) lines.push(`      - { category: p${j}, status: succeeded, regex: '.*p${j}.*' }`);
  }
  return `${lines.join('\n')}\n`;
}

beforeAll(() => writeFileSync(config, bulkConfig(40, 2)));
afterAll(async () => {
  await faulty?.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (s: TestServer, token: string) => ({ MENUCTL_API_URL: s.url, MENUCTL_TOKEN: token });

describe('retries under 503s, resets and a rate limit', () => {
  it('apply of 40 actions x 2 parsers converges in one run (three fault seeds, side by side)', async () => {
    const runs = await Promise.all([3, 4, 11].map(async (seed) => {
      const seedData = join(dir, `apply-${seed}.sqlite`);
      const server = await startTestServer({ data: seedData, ...FAULTS, faultSeed: seed });
      try {
        return { seed, seedData, result: await runCli(['apply', config, '--yes'], { env: env(server, server.token) }) };
      } finally {
        await server.close();
      }
    }));
    for (const { seed, seedData, result } of runs) {
      expect(result.stderr, `seed ${seed}`).not.toMatch(/failed/);
      expect(result.code, `seed ${seed}`).toBe(0);
      // Counted through a server without faults on the same database.
      const clean = await startTestServer({ data: seedData });
      try {
        const c = await census(clientFor(clean));
        expect(c.actions.size).toBe(40);
        expect([...c.actions.values()].every((n) => n === 1)).toBe(true);
        expect(c.parsers.size).toBe(80);
        expect([...c.parsers.values()].every((n) => n === 1)).toBe(true);
        expect(c.activeParsers).toBe(80);
      } finally {
        await clean.close();
      }
    }
  }, 180_000);

  it('plan succeeds on every one of 10 runs (each with its own token, so they run side by side)', async () => {
    // The config applied, so every plan reads all 40 actions' parsers.
    faulty = await startTestServer({ data: join(dir, 'apply-3.sqlite'), ...FAULTS, faultSeed: 5 });
    const tokens = await Promise.all(Array.from({ length: 10 }, (_, i) => faulty!.mintToken(1, `${2 + i}h`)));
    const runs = await Promise.all(tokens.map((t) => runCli(['plan', config, '--detailed-exitcode'], { env: env(faulty!, t) })));
    for (const r of runs) {
      // Quiet but for the read's progress lines (a read longer than 5 s prints them in a log).
      expect(r.stderr.replace(/^reading the live API: \d+\/\d+ actions' parsers \(\d+ s\)\n/gm, '')).toBe('');
      expect(r.code).toBe(0);
    }
    expect(faulty.stats().requests).toBeGreaterThan(10 * 42);
  }, 120_000);
});
