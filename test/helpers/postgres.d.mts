// Types of ./postgres.mjs (plain JavaScript so that the benches can import it too).

export interface TestPostgres {
  /** `postgres://USER:PASSWORD@127.0.0.1:PORT/DB` */
  url: string;
  user: string;
  password: string;
  port: number;
  database: string;
  /** With `tls`: the server's self-signed certificate (its own CA), made for `host` only. */
  tls?: { cert: string; host: string };
  /** How long initdb and the first connection took, for the curious (never asserted). */
  startMs: number;
  /** With `logStatements`: every statement logged so far (the marker queries left out); else empty. */
  statements(): string[];
  /** With `logStatements`: resolves once every statement sent before the call is in statements(). */
  settle(): Promise<void>;
  /** Stops the server (fast shutdown) and removes its data; safe to call twice. */
  stop(): Promise<void>;
}

/** Starts a fresh server; one per test file (beforeAll/afterAll) is the intended use. */
export function startPostgres(options?: { logStatements?: boolean; tls?: boolean }): Promise<TestPostgres>;
