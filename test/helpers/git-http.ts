// A real smart-HTTP git server for tests: Node's http server in front of `git http-backend`
// run as a CGI script (git-http-backend(1)), with HTTP Basic auth when users are given. Git
// clients talk to it as to GitHub or GitLab: credential helpers, 401 challenges, gzip-encoded
// request bodies, protocol v2 and pushes all take the real code paths.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';

export interface GitHttpServerOptions {
  /** The directory that holds the repositories (GIT_PROJECT_ROOT). */
  root: string;
  /** user -> password; when given, every request needs one of them (Basic auth). */
  users?: Record<string, string>;
}

export interface GitHttpServer {
  port: number;
  root: string;
  /** `http://[user:password@]127.0.0.1:PORT/NAME`. */
  url(name: string, auth?: { user: string; password: string }): string;
  /** A new bare repository `NAME` under the root. */
  createRepo(name: string): string;
  /** Requests answered so far, and how many of them were refused with 401. */
  readonly stats: { requests: number; unauthorized: number };
  close(): Promise<void>;
}

/** An environment for the server's git: no user or system config of the machine running the tests. */
function serverEnv(root: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
}

export async function startGitHttpServer(o: GitHttpServerOptions): Promise<GitHttpServer> {
  const stats = { requests: 0, unauthorized: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    stats.requests++;
    const user = authorize(req, o.users);
    if (user === false) {
      stats.unauthorized++;
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="menuctl test"', 'Content-Type': 'text/plain' });
      res.end('authentication required\n');
      return;
    }
    runBackend(req, res, o.root, user);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    port,
    root: o.root,
    stats,
    url: (name, auth) => `http://${auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.password)}@` : ''}127.0.0.1:${port}/${name}`,
    createRepo(name) {
      const dir = join(o.root, name);
      mkdirSync(dir, { recursive: true });
      execFileSync('git', ['init', '--bare', '--quiet', dir], { env: serverEnv(o.root) });
      return dir;
    },
    close: () => new Promise<void>((done) => {
      for (const s of sockets) s.destroy();
      server.close(() => done());
    }),
  };
}

/** The authenticated user (null: no auth asked), or false when the request must be refused. */
function authorize(req: IncomingMessage, users: Record<string, string> | undefined): string | null | false {
  if (!users) return null;
  const m = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!m) return false;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const [user, password] = colon < 0 ? [decoded, ''] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
  return Object.hasOwn(users, user) && users[user] === password ? user : false;
}

/** One request through `git http-backend` as CGI (RFC 3875): meta-variables in, "Status:" and headers out. */
function runBackend(req: IncomingMessage, res: ServerResponse, root: string, user: string | null): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const env: NodeJS.ProcessEnv = {
    ...serverEnv(root),
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.replace(/^\?/, ''),
    REQUEST_METHOD: req.method ?? 'GET',
    REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
    GATEWAY_INTERFACE: 'CGI/1.1',
    SERVER_PROTOCOL: `HTTP/${req.httpVersion}`,
  };
  if (req.headers['content-type']) env.CONTENT_TYPE = req.headers['content-type'];
  // Absent for a chunked body (git sends large pushes so): http-backend then reads to EOF.
  if (req.headers['content-length']) env.CONTENT_LENGTH = req.headers['content-length'];
  // http-backend inflates a gzip body itself when told; Git-Protocol selects protocol v2.
  if (req.headers['content-encoding']) env.HTTP_CONTENT_ENCODING = req.headers['content-encoding'];
  if (req.headers['git-protocol']) env.HTTP_GIT_PROTOCOL = String(req.headers['git-protocol']);
  if (user !== null) {
    env.REMOTE_USER = user;
    env.AUTH_TYPE = 'Basic';
  } else {
    // Anonymous pushes are off by default (http.receivepack); a test server allows them.
    Object.assign(env, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.receivepack', GIT_CONFIG_VALUE_0: 'true' });
  }
  const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  req.pipe(child.stdin);
  child.stdin.on('error', () => undefined);
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
  let head = Buffer.alloc(0);
  let headerDone = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headerDone) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = findHeaderEnd(head);
    if (!end) return;
    headerDone = true;
    const { status, headers } = parseCgiHeaders(head.subarray(0, end.at).toString('latin1'));
    res.writeHead(status, headers);
    res.write(head.subarray(end.at + end.length));
  });
  child.on('error', (err) => {
    if (!res.headersSent) res.writeHead(500);
    res.end(String(err));
  });
  child.on('close', (code) => {
    if (!headerDone) {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(`git http-backend exited ${code} without a response: ${stderr}`);
      return;
    }
    res.end();
  });
}

function findHeaderEnd(buf: Buffer): { at: number; length: number } | null {
  const crlf = buf.indexOf('\r\n\r\n');
  const lf = buf.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { at: crlf, length: 4 };
  return lf >= 0 ? { at: lf, length: 2 } : null;
}

function parseCgiHeaders(text: string): { status: number; headers: Record<string, string> } {
  let status = 200;
  const headers: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 200;
    else headers[name] = value;
  }
  return { status, headers };
}
