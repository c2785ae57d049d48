// A local HTTP server standing in for the part of the GitHub REST API the action uses: a pull
// request's issue comments (list with pagination, create, update). It checks the token the way
// GitHub does and records every request, so tests can assert what the action sent.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Comment { id: number; body: string; user: { login: string; type?: 'Bot' | 'User' } }
export interface Recorded { method: string; path: string; authorization: string | undefined; body: string }

export interface GithubStandIn {
  url: string;
  comments: Map<number, Comment[]>;
  requests: Recorded[];
  /** Answer every write with this status instead (e.g. 403, a read-only fork token). */
  failWritesWith: number | null;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) => new Promise<string>((done) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
});

export async function startGithubStandIn(repository: string, token: string): Promise<GithubStandIn> {
  const comments = new Map<number, Comment[]>();
  const requests: Recorded[] = [];
  let nextId = 1000;
  const state: GithubStandIn = { url: '', comments, requests, failWritesWith: null, close: async () => {} };
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    requests.push({ method: req.method ?? '', path: url.pathname + url.search, authorization: req.headers.authorization, body });
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { message: 'Bad credentials' });
    const prefix = `/repos/${repository}/issues/`;
    if (!url.pathname.startsWith(prefix)) return send(404, { message: 'Not Found' });
    const rest = url.pathname.slice(prefix.length);
    const list = /^(\d+)\/comments$/.exec(rest);
    const one = /^comments\/(\d+)$/.exec(rest);
    if (req.method !== 'GET' && state.failWritesWith !== null) return send(state.failWritesWith, { message: 'Resource not accessible by integration' });
    if (list && req.method === 'GET') {
      const all = comments.get(Number(list[1])) ?? [];
      const perPage = Number(url.searchParams.get('per_page') ?? 30);
      const page = Number(url.searchParams.get('page') ?? 1);
      return send(200, all.slice((page - 1) * perPage, page * perPage));
    }
    if (list && req.method === 'POST') {
      const comment: Comment = { id: nextId++, body: (JSON.parse(body) as { body: string }).body, user: { login: 'github-actions[bot]', type: 'Bot' } };
      comments.set(Number(list[1]), [...(comments.get(Number(list[1])) ?? []), comment]);
      return send(201, comment);
    }
    if (one && req.method === 'PATCH') {
      const comment = [...comments.values()].flat().find((c) => c.id === Number(one[1]));
      if (!comment) return send(404, { message: 'Not Found' });
      // As with GITHUB_TOKEN: the action's bot may edit its own comments, not a person's.
      if (comment.user.type !== 'Bot') return send(403, { message: 'Resource not accessible by integration' });
      comment.body = (JSON.parse(body) as { body: string }).body;
      return send(200, comment);
    }
    return send(404, { message: 'Not Found' });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((done) => server.close(() => done()));
  return state;
}
