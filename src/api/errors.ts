// The one error shape for everything that goes wrong talking to the API (CONVENTIONS.md:
// "One error shape for the API"). Messages name the request and what the server said;
// they never contain a header value, a token or a password (nothing here ever sees them).
// The message is text for people: the server's words in it (code, detail, title, pointer) are
// made inert (text/inert.ts), so printing it cannot run a terminal escape or add a line. The
// fields (code, detail, errors) keep the server's exact text, for JSON output.

import { inert } from '../text/inert.js';

/**
 * `failed`: the request definitely had no effect (or failed with a definite answer).
 * `unknown`: a write may or may not have happened (a POST whose answer was lost, or a 5xx
 * to a POST); apply must look the resource up by identity before creating it again.
 */
export type FailureKind = 'failed' | 'unknown';

/** One entry of the server's `{ errors: [...] }` body. */
export interface ServerError {
  status?: string | number;
  code?: string;
  title?: string;
  detail?: string;
  pointer?: string;
}

export interface ApiErrorInit {
  method: string;
  path: string;
  status: number | null;
  code?: string;
  detail?: string;
  errors?: ServerError[];
  outcome: FailureKind;
  retryable: boolean;
  /** Network error code (ECONNRESET, UND_ERR_HEADERS_TIMEOUT...) when there was no answer. */
  networkCode?: string;
  /** The API's base URL, already without credentials (display-url.ts): named when it could not be reached or is not the API. */
  baseUrl?: string;
  /** Overrides the generated explanation after "METHOD PATH: ". */
  explanation?: string;
}

export class ApiError extends Error {
  readonly method: string;
  readonly path: string;
  readonly status: number | null;
  readonly code: string | undefined;
  readonly detail: string | undefined;
  /** The first error's JSON pointer, e.g. `/parser/regex`. */
  readonly pointer: string | undefined;
  readonly errors: ServerError[];
  readonly outcome: FailureKind;
  /** The failure was transient: running again later may succeed. */
  readonly retryable: boolean;
  readonly networkCode: string | undefined;

  constructor(init: ApiErrorInit) {
    super(`${init.method} ${init.path}: ${init.explanation ?? explain(init)}`);
    this.name = 'ApiError';
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.errors = init.errors ?? [];
    this.code = init.code ?? this.errors[0]?.code;
    this.detail = init.detail ?? this.errors[0]?.detail;
    this.pointer = this.errors[0]?.pointer;
    this.outcome = init.outcome;
    this.retryable = init.retryable;
    this.networkCode = init.networkCode;
  }
}

/** A response that parsed but does not have the shape the API documents. */
export class ResponseShapeError extends ApiError {
  constructor(init: Omit<ApiErrorInit, 'code' | 'retryable'> & { problem: string }) {
    super({ ...init, code: 'response_shape', retryable: false, explanation: init.problem });
    this.name = 'ResponseShapeError';
  }
}

/** `/parser/regex` -> `regex`: the field a person would look for. */
export function pointerField(pointer: string | undefined): string | undefined {
  if (!pointer) return undefined;
  const parts = pointer.split('/').filter(Boolean);
  // Drop the body's envelope key (`parser`, `custom_action`, `app`).
  const field = (parts.length > 1 ? parts.slice(1) : parts).join('.');
  return field || undefined;
}

/** Routes every server of this API has (spec): a 404 from one means the URL is not the API. */
const ALWAYS_THERE = new Set(['GET /api/actions', 'GET /api/world_operators', 'POST /api/authenticate', 'POST /api/actions', 'POST /api/parsers']);

function explain(init: ApiErrorInit): string {
  if (init.status === null) {
    const what = init.networkCode ? networkWords(init.networkCode, init.baseUrl) : 'network error';
    const tail = init.outcome === 'unknown'
      ? ' (the request was sent; whether the server acted on it is unknown)'
      : '';
    return `no answer: ${what}${tail}`;
  }
  if (init.status === 404 && init.baseUrl && ALWAYS_THERE.has(`${init.method} ${init.path.replace(/\?.*/, '')}`)) {
    return `404: this does not look like the Mobile Menu Automation API at ${init.baseUrl} (it has no ${init.path}): ` +
      'check --api-url / MENUCTL_API_URL, the address in front of /api';
  }
  // undici follows no redirect, and menuctl must not: the token and the body would go elsewhere.
  if (init.status >= 300 && init.status < 400 && init.baseUrl) {
    return `${init.status} redirect: ${init.baseUrl} answered with a redirect, which menuctl does not follow (it would send the token elsewhere): ` +
      'check --api-url / MENUCTL_API_URL (https rather than http? the right host?)';
  }
  const errors = init.errors ?? [];
  // A bare 401 (no body a person could act on) still has one likely fix.
  if (init.status === 401 && errors.length === 0 && !init.detail && init.baseUrl) {
    return `401 ${inert(init.code ?? 'unauthorized')}: the API refused the credentials: check MENUCTL_TOKEN (or MENUCTL_EMAIL and MENUCTL_PASSWORD): ` +
      `expired, mistyped, or meant for another server than ${init.baseUrl}`;
  }
  const first = errors[0];
  const code = init.code ?? first?.code ?? statusWord(init.status);
  const details = errors.length > 0
    ? errors.map((e) => {
      const field = pointerField(e.pointer);
      const text = e.detail ?? e.title ?? '';
      return field ? `${field}: ${text}` : text;
    }).filter(Boolean).join('; ')
    : init.detail ?? '';
  return `${init.status} ${inert(code)}${details ? `: ${inert(details)}` : ''}`;
}

/** Node's codes for a certificate it cannot verify (a private CA, self-signed, wrong name). */
const UNTRUSTED_CERTIFICATE = [
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID',
];

/** Failures to reach the server at all: the URL is the first thing to check, so they name it. */
const UNREACHABLE: Record<string, (url: string) => string> = {
  ECONNREFUSED: (url) => `connection refused by ${url} (is the API running at that URL?)`,
  ENOTFOUND: (url) => `host not found for ${url} (check the API URL)`,
  EAI_AGAIN: (url) => `temporary DNS failure looking up ${url}`,
  UND_ERR_CONNECT_TIMEOUT: (url) => `timed out connecting to ${url}`,
  UND_ERR_HEADERS_TIMEOUT: (url) => `timed out waiting for ${url} to answer (the server is slow or stuck: try again later)`,
  // A TLS client hello answered by a plain-HTTP server.
  ERR_SSL_WRONG_VERSION_NUMBER: (url) => `${url} speaks plain HTTP, not HTTPS: try ${url.replace(/^https:/i, 'http:')}`,
  ...Object.fromEntries(UNTRUSTED_CERTIFICATE.map((code) => [code, (url: string) =>
    `the TLS certificate of ${url} is not trusted (${code}): set NODE_EXTRA_CA_CERTS to a file with your CA's certificate, or check the host name`])),
};

function networkWords(code: string, baseUrl: string | undefined): string {
  const unreachable = UNREACHABLE[code];
  if (unreachable && baseUrl) return unreachable(baseUrl);
  return NETWORK_WORDS[code] ?? code;
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is the API running at that URL?)',
  ECONNRESET: 'connection reset by the server',
  EPIPE: 'connection closed while sending',
  ETIMEDOUT: 'connection timed out',
  ENOTFOUND: 'host not found (check the API URL)',
  EAI_AGAIN: 'temporary DNS failure',
  UND_ERR_SOCKET: 'connection closed by the server before it answered',
  UND_ERR_CONNECT_TIMEOUT: 'timed out connecting',
  UND_ERR_HEADERS_TIMEOUT: 'timed out waiting for the response',
  UND_ERR_BODY_TIMEOUT: 'timed out reading the response body',
  UND_ERR_CLOSED: 'connection closed',
  UND_ERR_ABORTED: 'request aborted',
};

function statusWord(status: number): string {
  const words: Record<number, string> = {
    400: 'bad_request', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 405: 'method_not_allowed',
    409: 'conflict', 413: 'payload_too_large', 415: 'unsupported_media_type', 422: 'validation',
    429: 'rate_limited', 500: 'internal_error', 502: 'bad_gateway', 503: 'unavailable', 504: 'gateway_timeout',
  };
  return words[status] ?? 'error';
}

/**
 * A call its client was closed under, before it was sent (again): waiting for a slot, for a 429
 * pause or to retry. Its run has ended and nobody reads the answer; nothing more was sent for it.
 */
export class ClientClosedError extends Error {
  constructor(message = 'the API client was closed: this call was not sent (again)') {
    super(message);
    this.name = 'MenuctlClientClosedError';
  }
}
