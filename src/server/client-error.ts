// Requests Node's HTTP layer refuses before any handler runs: headers too large, broken framing,
// a request that took too long (`clientError`), an `Expect` it cannot meet (`checkExpectation`),
// a CONNECT (`connect`). Node's default answer is a bare status line or a closed connection;
// here it is the same JSON error body as every other failure (docs/api.md, "Errors"), written
// straight to the socket where there is no response object.

import type { Socket } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, httpError } from './errors.js';
import { sendError } from './http-io.js';

/** What Node's parser and timers report, as the answer to give; null: just close. */
export function clientErrorAnswer(err: NodeJS.ErrnoException): HttpError | null {
  const code = err.code ?? '';
  if (code === 'HPE_HEADER_OVERFLOW') {
    return httpError(431, 'header_too_large', 'the request line and headers are over the server\'s limit (16 KiB): send fewer or shorter headers');
  }
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') {
    return httpError(413, 'payload_too_large', 'the chunk extensions are too large: send plain chunks');
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return httpError(408, 'request_timeout', 'the request (headers and body) did not arrive in time: send it whole, promptly');
  }
  if (code.startsWith('HPE_')) {
    return httpError(400, 'bad_request', `the request is not valid HTTP/1.1 (${code}): check the request line, the headers and the body framing`);
  }
  // ECONNRESET and other socket errors: nobody is left to read an answer.
  return null;
}

const answered = new WeakSet<Socket>();

export function onClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // The parser reports again for every later piece of data on a broken connection: answer once.
  if (answered.has(socket)) return;
  answered.add(socket);
  const answer = clientErrorAnswer(err);
  if (answer === null || !socket.writable) {
    socket.destroy();
    return;
  }
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (!inFlight || inFlight.writableFinished || inFlight.destroyed) {
    writeAndClose(socket, answer);
  } else if (inFlight.headersSent) {
    // Half an answer is on the wire: finish it, then close.
    inFlight.once('finish', () => socket.destroy()).once('close', () => socket.destroy());
  } else if (inFlight.req.complete) {
    // The garbage came after a whole request (pipelined): that request is answered first.
    inFlight.once('finish', () => writeAndClose(socket, answer)).once('close', () => socket.destroy());
  } else {
    // The request being handled is the broken or late one (its body never came whole): this is
    // its answer. Its handler, still waiting for the body, sees the connection close.
    sendError(inFlight, new HttpError(answer.status, answer.errors, { Connection: 'close' }));
  }
}

function writeAndClose(socket: Socket, err: HttpError): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ errors: err.errors });
  socket.end(
    `HTTP/1.1 ${err.status} ${err.errors[0]!.title}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' + body,
  );
  // end() waits for the peer; a peer that never reads must not hold the socket.
  setTimeout(() => socket.destroy(), 2_000).unref();
}

/** `Expect:` other than 100-continue: Node's bare 417, as the JSON error. */
export function onCheckExpectation(req: IncomingMessage, res: ServerResponse): void {
  sendError(res, httpError(417, 'expectation_failed', `Expect: ${String(req.headers.expect ?? '').slice(0, 64)} is not supported: only 100-continue is`, { header: 'Expect' }));
  req.resume();
}

/** CONNECT is not a method of this API; Node would drop the connection without a word. */
export function onConnect(_req: IncomingMessage, socket: Socket): void {
  writeAndClose(socket, new HttpError(405, [{ code: 'method_not_allowed', detail: 'CONNECT is not supported: this is not a proxy' }]));
}
