// Reading request bodies (1 MiB cap, JSON only) and writing JSON responses.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, httpError } from './errors.js';

export const MAX_BODY = 1024 * 1024;

// The rest of an oversized body is never read, so the connection cannot be reused.
const tooLarge = () => new HttpError(413,
  [{ code: 'payload_too_large', detail: `the request body is over ${MAX_BODY} bytes (1 MiB): send less` }],
  { Connection: 'close' });

/** Reads and parses a JSON body; 415 for another media type, 413 over 1 MiB, 400 if malformed. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw httpError(415, 'unsupported_media_type', 'send the body as JSON with Content-Type: application/json', { header: 'Content-Type' });
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw tooLarge();
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw httpError(400, 'malformed_json', `the body is not valid JSON: ${(err as Error).message}`);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (body === undefined) {
    // 204 No Content: no body, so no Content-Type either.
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, err: HttpError): void {
  sendJson(res, err.status, { errors: err.errors }, err.headers);
}
