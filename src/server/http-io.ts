// Reading request bodies (1 MiB cap, UTF-8 JSON only) and writing JSON responses.
//
// The body is read with plain listeners, never `for await`: leaving an async iterator early
// destroys the request and its socket, and the error path that followed then met a request
// without a socket. Here an oversized body only stops being kept; what is
// left of it is discarded by discardRest() once the 413 is on its way.

import type { IncomingMessage } from 'node:http';
import type { ServerResponse } from 'node:http';
import { HttpError, httpError } from './errors.js';

export const MAX_BODY = 1024 * 1024;
/** After an early answer, how much more of an unread body is read and dropped, and for how long. */
export const LINGER_BYTES = 4 * MAX_BODY;
export const LINGER_MS = 5_000;

const tooLarge = (headers: Record<string, string> = {}) => new HttpError(413,
  [{ code: 'payload_too_large', detail: `the request body is over ${MAX_BODY} bytes (1 MiB): send less` }],
  headers);

/** The client went away before its body arrived: nobody is left to answer. */
export class ClientGone extends Error {
  constructor() {
    super('the client closed the connection before sending the whole body');
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads and parses a JSON body; 415 for another media type, 413 over 1 MiB, 400 if malformed. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw httpError(415, 'unsupported_media_type', 'send the body as JSON with Content-Type: application/json', { header: 'Content-Type' });
  }
  const bytes = await readLimited(req);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    // Decoding with replacement characters would store something other than what was sent.
    throw httpError(400, 'malformed_json', 'the body is not valid UTF-8: send JSON encoded as UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw httpError(400, 'malformed_json', `the body is not valid JSON: ${(err as Error).message}`);
  }
}

/** The whole body within MAX_BODY; 413 (before reading) when Content-Length is already over it. */
export async function readLimited(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  // A body this large will not be read even to discard it: say so, and close after answering.
  if (declared > MAX_BODY + LINGER_BYTES) throw tooLarge({ Connection: 'close' });
  if (declared > MAX_BODY) throw tooLarge();
  return readBody(req);
}

/** The whole body, or a 413 as soon as it passes MAX_BODY (the rest is left unread). */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (settle: () => void) => {
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      req.pause();
      settle();
    };
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) done(() => reject(tooLarge()));
      else chunks.push(c);
    };
    const onEnd = () => done(() => resolve(Buffer.concat(chunks, size)));
    const onGone = () => done(() => reject(new ClientGone()));
    req.on('data', onData).on('end', onEnd).on('error', onGone).on('close', onGone);
    req.resume();
  });
}

/**
 * After an answer sent before the body was read (413, 401, 404...): read and drop the rest so
 * the client, still sending, sees the answer rather than a reset; but no more than
 * LINGER_BYTES or LINGER_MS, after which the connection is cut.
 */
export function discardRest(req: IncomingMessage, cut: () => void): void {
  if (req.complete || req.destroyed) return;
  let dropped = 0;
  const stop = () => {
    clearTimeout(timer);
    req.off('data', onData);
  };
  const onData = (c: Buffer) => {
    dropped += c.length;
    if (dropped > LINGER_BYTES) {
      stop();
      cut();
    }
  };
  const timer = setTimeout(() => { stop(); cut(); }, LINGER_MS);
  timer.unref();
  req.on('data', onData).once('end', stop).once('close', stop);
  req.resume();
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (body === undefined) {
    // 204 No Content: no body, so no Content-Type either.
    res.writeHead(status, headers);
    res.end();
    return;
  }
  sendBytes(res, status, Buffer.from(JSON.stringify(body)), headers);
}

/** A JSON answer already serialised (answer-cache.ts). */
export function sendBytes(res: ServerResponse, status: number, bytes: Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': bytes.length,
    ...headers,
  });
  res.end(bytes);
}

export function sendError(res: ServerResponse, err: HttpError): void {
  sendJson(res, err.status, { errors: err.errors }, err.headers);
}
