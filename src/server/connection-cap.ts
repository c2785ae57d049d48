// Open connections per client address: a thousand idle sockets from one client locked every
// other client out until they timed out, since an idle connection costs the server a file
// descriptor and a parser until its headers timeout. A client address (client-address.ts)
// holding `max` connections has each further one closed as soon as it is accepted, before a
// byte is read: its own open connections keep working, other addresses are not affected.
//
// No answer is written on the refused connection: it carries no request yet, and a response
// sent before the request races the client's write (the peer may see a reset instead). A
// client sees the connection closed, which HTTP clients treat as retryable before a request was
// sent on it.

import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { clientAddress } from './client-address.js';

/** Default per-client cap: far above what a client needs (menuctl: 8, at most 64 with --concurrency auto). */
export const DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 256;

export interface ConnectionCap {
  /** Connections refused since start. */
  refused(): number;
}

export function capConnectionsPerClient(server: Server, max: number): ConnectionCap {
  const open = new Map<string, number>();
  let refused = 0;
  // Prepended: runs before node:http attaches its parser, so a refused socket is never read.
  server.prependListener('connection', (socket: Socket) => {
    const client = clientAddress(socket.remoteAddress);
    const n = open.get(client) ?? 0;
    if (n >= max) {
      refused++;
      socket.destroy();
      return;
    }
    open.set(client, n + 1);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left === 0) open.delete(client);
      else open.set(client, left);
    });
  });
  return { refused: () => refused };
}
