// An ApiClient that loads the HTTP client (undici, transport, response checks) on its
// first request. cli/connect.ts is imported to register every connecting command's flags, and
// `menuctl --help` or `plan --help` should not pay for a client they never use.

import type { ClientOptions } from './client.js';
import { ClientClosedError } from './errors.js';
import type { ApiClient } from './types.js';

const NO_REQUESTS = Object.freeze({ requests: 0, retries: 0 });

/** `load`: how the real client is made (tests count the calls); by default, imported on first use. */
export function lazyClient(
  options: ClientOptions,
  load: (options: ClientOptions) => Promise<ApiClient> = async (o) => (await import('./client.js')).createClient(o),
): ApiClient {
  let real: ApiClient | undefined;
  let loading: Promise<ApiClient> | undefined;
  let closed = false;
  const client = () => {
    if (closed) return Promise.reject(new ClientClosedError());
    return (loading ??= load(options).then((c) => (real = c)));
  };
  const close = async () => {
    closed = true;
    // A client that never loaded (or failed to) has nothing to close; its error was reported where it was used.
    const made = await loading?.catch(() => undefined);
    await made?.close();
  };
  return new Proxy({} as ApiClient, {
    get(_, name) {
      if (name === 'stats') return real?.stats ?? NO_REQUESTS;
      if (name === 'close') return close;
      // Not a thenable: `await connect(...)` and returning it from an async function must not call it.
      if (typeof name !== 'string' || name === 'then') return undefined;
      return async (...args: unknown[]) => {
        const c = await client();
        const method = c[name as keyof ApiClient];
        if (typeof method !== 'function') throw new TypeError(`ApiClient has no method ${name}`);
        return (method as (...a: unknown[]) => unknown).apply(c, args);
      };
    },
  });
}
