// A loopback HTTP stand-in in front of the reference server, for what the real server never
// does: answer with hostile text, or accept a request and never answer. Each request is passed
// on unless `decide` says otherwise; what happened is kept as events, in order, so a test can
// assert "the client closed the socket after the signal" without measuring time.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Decision = 'pass' | 'hang' | { status: number; body: unknown };

export interface StandInEvent {
  kind: 'request' | 'client-closed';
  method: string;
  path: string;
}

export interface StandIn {
  url: string;
  events: StandInEvent[];
  /** Resolves with the first event `match` accepts, past or future; each event is offered to it once, in order. */
  seen(match: (e: StandInEvent) => boolean): Promise<StandInEvent>;
  close(): Promise<void>;
}

export async function startStandIn(options: { upstream?: string; decide: (req: IncomingMessage) => Decision }): Promise<StandIn> {
  const events: StandInEvent[] = [];
  const waiters: { match: (e: StandInEvent) => boolean; resolve: (e: StandInEvent) => void }[] = [];
  const sockets = new Set<Socket>();
  const note = (e: StandInEvent) => {
    events.push(e);
    for (const w of waiters.splice(0)) {
      if (w.match(e)) w.resolve(e);
      else waiters.push(w);
    }
  };
  const server: Server = createServer((req, res) => {
    const e = { method: req.method ?? '', path: req.url ?? '' };
    note({ kind: 'request', ...e });
    const decision = options.decide(req);
    if (decision === 'hang') {
      // Never answered: the only way this ends is the client closing its end.
      req.socket.once('close', () => note({ kind: 'client-closed', ...e }));
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (decision !== 'pass') {
        res.writeHead(decision.status, { 'content-type': 'application/json' }).end(JSON.stringify(decision.body));
        return;
      }
      void pass(options.upstream!, req, Buffer.concat(chunks)).then(({ status, headers, body }) => {
        res.writeHead(status, headers).end(body);
      }, () => res.destroy());
    });
  });
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    seen: (match) => {
      const found = events.find(match);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function pass(upstream: string, req: IncomingMessage, body: Buffer) {
  const headers: Record<string, string> = {};
  for (const name of ['authorization', 'content-type', 'accept']) {
    const v = req.headers[name];
    if (typeof v === 'string') headers[name] = v;
  }
  const res = await fetch(upstream + (req.url ?? ''), {
    method: req.method, headers, ...(body.length > 0 ? { body } : {}),
  });
  const text = await res.text();
  const out: Record<string, string> = { 'content-type': res.headers.get('content-type') ?? 'application/json' };
  const retryAfter = res.headers.get('retry-after');
  if (retryAfter) out['retry-after'] = retryAfter;
  return { status: res.status, headers: out, body: text };
}
