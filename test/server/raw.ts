// Raw HTTP/1.1 over node:net, for what fetch cannot send: lying Content-Length, bad framing,
// huge headers, chunked bodies written piece by piece, a body trickled slowly.

import { connect } from 'node:net';

export interface RawAnswer {
  /** The first response's status, or null when the server closed without answering. */
  status: number | null;
  headers: Record<string, string>;
  /** The first response's body text (Content-Length framed). */
  body: string;
  /** Everything received, for tests that send several requests on one connection. */
  raw: string;
  /** How the connection ended: the server closed it, reset it, or it is still open at `timeoutMs`. */
  ended: 'closed' | 'reset' | 'open';
}

export interface RawOptions {
  /** Pieces written in order; a number is a pause in ms. */
  pieces: Array<string | Buffer | number>;
  /** Give up waiting for the server after this long (the test's bound on a hang). */
  timeoutMs?: number;
  /** Stop as soon as this many complete responses arrived (default: wait for close/timeout). */
  responses?: number;
}

/** Writes `pieces` to host:port and collects what comes back. */
export function rawExchange(port: number, o: RawOptions): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let ended: RawAnswer['ended'] = 'open';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parse(Buffer.concat(chunks).toString('latin1'), ended));
    };
    const timer = setTimeout(finish, o.timeoutMs ?? 5000);
    socket.on('data', (d) => {
      chunks.push(d);
      if (o.responses !== undefined && countResponses(Buffer.concat(chunks).toString('latin1')) >= o.responses) finish();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') ended = 'reset';
    });
    socket.on('close', () => {
      if (ended === 'open') ended = 'closed';
      finish();
    });
    void (async () => {
      for (const p of o.pieces) {
        if (done || socket.destroyed) return;
        if (typeof p === 'number') {
          await new Promise((r) => setTimeout(r, p));
        } else if (!socket.write(p)) {
          await new Promise((r) => { socket.once('drain', r); socket.once('close', r); });
        }
      }
    })();
  });
}

// Interim answers (100 Continue) come before the real one.
const INTERIM = /^(HTTP\/1\.[01] 1\d\d[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n)+/;

function parse(all: string, ended: RawAnswer['ended']): RawAnswer {
  const text = all.replace(INTERIM, '');
  const m = /^HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n([\s\S]*?)\r\n\r\n/.exec(text);
  if (!m) return { status: null, headers: {}, body: '', raw: all, ended };
  const headers: Record<string, string> = {};
  for (const line of m[2]!.split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const start = m[0].length;
  const length = Number(headers['content-length'] ?? 0);
  return { status: Number(m[1]), headers, body: text.slice(start, start + length), raw: all, ended };
}

/** Complete Content-Length framed responses in `text`. */
function countResponses(all: string): number {
  const text = all.replace(INTERIM, '');
  let n = 0;
  let at = 0;
  for (;;) {
    const m = /^HTTP\/1\.[01] \d{3}[^\r\n]*\r\n([\s\S]*?)\r\n\r\n/.exec(text.slice(at));
    if (!m) return n;
    const len = /content-length:\s*(\d+)/i.exec(m[1]!);
    const end = at + m[0].length + Number(len?.[1] ?? 0);
    if (end > text.length) return n;
    n++;
    at = end;
  }
}

/** A chunked-encoding frame for `data`. */
export const chunk = (data: string | Buffer): string => {
  const text = typeof data === 'string' ? data : data.toString('latin1');
  return `${Buffer.byteLength(text, 'latin1').toString(16)}\r\n${text}\r\n`;
};

export const head = (method: string, path: string, headers: Record<string, string | number> = {}): string =>
  `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
