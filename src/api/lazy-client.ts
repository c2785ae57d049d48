// An ApiClient that loads the HTTP client (undici, transport, response checks: ~130 ms) on its
// first request. cli/connect.ts is imported to register every connecting command's flags, and
// `menuctl --help` or `plan --help` should not pay for a client they never use.

import type { ClientOptions } from './client.js';
import type { ApiClient } from './types.js';

const NO_REQUESTS = Object.freeze({ requests: 0, retries: 0 });

export function lazyClient(options: ClientOptions): ApiClient {
  let real: ApiClient | undefined;
  let loading: Promise<ApiClient> | undefined;
  const load = () => (loading ??= import('./client.js').then((m) => (real = m.createClient(options))));
  const close = async () => { if (loading !== undefined) await (await loading).close(); };
  return new Proxy({} as ApiClient, {
    get(_, name) {
      if (name === 'stats') return real?.stats ?? NO_REQUESTS;
      if (name === 'close') return close;
      // Not a thenable: `await connect(...)` and returning it from an async function must not call it.
      if (typeof name !== 'string' || name === 'then') return undefined;
      return async (...args: unknown[]) => {
        const client = await load();
        const method = client[name as keyof ApiClient];
        if (typeof method !== 'function') throw new TypeError(`ApiClient has no method ${name}`);
        return (method as (...a: unknown[]) => unknown).apply(client, args);
      };
    },
  });
}
