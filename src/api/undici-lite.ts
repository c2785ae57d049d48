// undici's Agent and request(), without the rest of undici. Its index loads every dispatcher,
// mock agent, cache store, interceptor and fetch, all before menuctl's first request; the
// client needs two of its files. undici has no exports map, so
// these are its own modules, loaded by path; if a release moves them, the whole package is
// loaded instead (docs/benchmarks.md, "Start-up").

import { createRequire } from 'node:module';
import type { Agent as AgentClass, Dispatcher } from 'undici';

type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & { method: Dispatcher.HttpMethod };
type ApiRequest = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

interface Parts {
  Agent: typeof AgentClass;
  apiRequest: ApiRequest;
}

let parts: Parts | undefined;
let source: 'lite' | 'package' | undefined;

function load(): Parts {
  if (parts) return parts;
  const require = createRequire(import.meta.url);
  try {
    const Agent = require('undici/lib/dispatcher/agent.js') as unknown;
    const apiRequest = require('undici/lib/api/api-request.js') as unknown;
    if (typeof Agent !== 'function' || typeof apiRequest !== 'function') throw new Error('undici moved its files');
    parts = { Agent: Agent as typeof AgentClass, apiRequest: apiRequest as ApiRequest };
    source = 'lite';
  } catch {
    const undici = require('undici') as typeof import('undici');
    parts = { Agent: undici.Agent, apiRequest(options) { return this.request(options); } };
    source = 'package';
  }
  return parts;
}

export function createAgent(options: ConstructorParameters<typeof AgentClass>[0]): Dispatcher {
  return new (load().Agent)(options);
}

/** undici's request(url, options): the same URL split (origin; path with its query) and dispatch. */
export function request(url: string, options: RequestOptions & { dispatcher: Dispatcher }): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  const u = new URL(url);
  return load().apiRequest.call(dispatcher, { ...rest, origin: u.origin, path: `${u.pathname}${u.search}` });
}

/**
 * Which undici was loaded: its two files, or (a release moved them) the whole package. A test
 * pins 'lite' for the undici in package-lock.json, so an upgrade that loses the saving shows.
 */
export function undiciSource(): 'lite' | 'package' {
  load();
  return source!;
}
