// Types of ./pgbouncer.mjs (plain JavaScript, like ./postgres.mjs).

import type { TestPostgres } from './postgres.mjs';

export interface TestPgbouncer {
  /** `postgres://USER:PASSWORD@127.0.0.1:PORT/DB` through the pooler, as the first user given. */
  url: string;
  port: number;
  poolMode: 'session' | 'transaction' | 'statement';
  /** What pgbouncer logged so far (the last 8 kB). */
  log(): string;
  /** Stops the pooler and removes its directory; safe to call twice. */
  stop(): Promise<void>;
}

/** Where pgbouncer is (installed, or fetched with apt-get download) and the env it needs; throws saying why not. */
export function locatePgbouncer(): { bin: string; env: Record<string, string> };

/** Starts pgbouncer in front of `server`; stock settings but those given. */
export function startPgbouncer(options: {
  server: TestPostgres;
  poolMode: 'session' | 'transaction' | 'statement';
  users: { name: string; password: string }[];
  settings?: Record<string, string | number>;
}): Promise<TestPgbouncer>;
