// Starts the reference server on port 0 over a temporary SQLite file, for integration tests.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type ServerOptions } from '../../src/server/index.js';
import type { ServerStats } from '../../src/server/handler.js';

export interface TestServer {
  url: string;
  org: number;
  token: string;
  mintToken(org: number, expiresIn?: string): Promise<string>;
  stats(): ServerStats;
  resetStats(): void;
  dataFile: string;
  close(): Promise<void>;
}

/** A fixed secret so tests can mint their own tokens with jose. */
export const TEST_JWT_SECRET = 'menuctl-test-secret-0123456789abcdef';

export async function startTestServer(opts: Partial<ServerOptions> = {}): Promise<TestServer> {
  // A directory of our own, removed on close with the WAL and shm files beside the database.
  const dir = opts.data === undefined ? mkdtempSync(join(tmpdir(), 'menuctl-test-')) : undefined;
  const dataFile = opts.data ?? join(dir!, 'api.sqlite');
  const server = await startServer({ port: 0, jwtSecret: TEST_JWT_SECRET, ...opts, data: dataFile });
  const org = 1;
  const token = await server.mintToken(org);
  let closed = false;
  return {
    url: server.url,
    org,
    token,
    mintToken: (o, expiresIn) => server.mintToken(o, expiresIn),
    stats: () => server.stats(),
    resetStats: () => server.resetStats(),
    dataFile,
    close: async () => {
      if (closed) return;
      closed = true;
      await server.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Requests other than GET the server has answered since the last resetStats(): what was written. */
export function writeRequests(server: Pick<TestServer, 'stats'>): number {
  return Object.entries(server.stats().byRoute).filter(([route]) => !route.startsWith('GET')).reduce((n, [, count]) => n + count, 0);
}
