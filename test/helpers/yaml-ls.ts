// A minimal Language Server Protocol client for yaml-language-server (dev dependency), run as a
// real child process over stdio: what an editor (VS Code's YAML extension, Neovim, Helix) shows
// for a file is what this returns.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

export interface LspDiagnostic {
  message: string;
  severity?: number;
  range: { start: { line: number; character: number } };
  source?: string;
}

type Message = { id?: number; method?: string; params?: unknown; result?: unknown; error?: unknown };

const SETTINGS = { yaml: { validate: true, hover: false, completion: false, schemaStore: { enable: false }, format: { enable: false } } };

export class YamlLanguageServer {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, (m: Message) => void>();
  private readonly diagnostics = new Map<string, { version?: number; items: LspDiagnostic[] }>();
  private readonly waiters: Array<() => void> = [];
  stderr = '';

  private constructor() {
    const bin = createRequire(import.meta.url).resolve('yaml-language-server/bin/yaml-language-server');
    this.child = spawn(process.execPath, [bin, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (c: Buffer) => this.receive(c));
    this.child.stderr.on('data', (c: Buffer) => { this.stderr += c.toString('utf8'); });
  }

  static async start(rootDir: string): Promise<YamlLanguageServer> {
    const ls = new YamlLanguageServer();
    await ls.request('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(rootDir).href,
      capabilities: { workspace: { configuration: true }, textDocument: { publishDiagnostics: { versionSupport: true } } },
    });
    ls.notify('initialized', {});
    ls.notify('workspace/didChangeConfiguration', { settings: SETTINGS });
    return ls;
  }

  /** Opens a document and waits for the server's diagnostics of it. */
  async diagnose(file: string, text: string, timeoutMs = 20_000): Promise<LspDiagnostic[]> {
    const uri = pathToFileURL(file).href;
    this.diagnostics.delete(uri);
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    const deadline = Date.now() + timeoutMs;
    // The server publishes once per validation; the schema loads asynchronously, so wait for a
    // quiet moment after the first publication rather than taking the first one.
    let seen = -1;
    for (;;) {
      const got = this.diagnostics.get(uri);
      if (got && seen === got.items.length) break;
      seen = got ? got.items.length : -1;
      if (Date.now() > deadline) throw new Error(`no diagnostics for ${file} from yaml-language-server:\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, got ? 400 : 50));
    }
    this.notify('textDocument/didClose', { textDocument: { uri } });
    return this.diagnostics.get(uri)!.items;
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.request('shutdown', null), new Promise((r) => setTimeout(r, 2000))]);
      this.notify('exit', null);
    } finally {
      this.child.stdin.end();
      if (this.child.exitCode === null) this.child.kill();
    }
  }

  private request(method: string, params: unknown): Promise<Message> {
    const id = this.nextId++;
    const answer = new Promise<Message>((resolve) => this.pending.set(id, resolve));
    this.send({ jsonrpc: '2.0', id, method, params });
    return answer;
  }

  private notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  private send(message: object): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin.write(body);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, end).toString('ascii'))?.[1]);
      if (this.buffer.length < end + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString('utf8')) as Message;
      this.buffer = this.buffer.subarray(end + 4 + length);
      this.handle(message);
    }
  }

  private handle(m: Message): void {
    if (m.id !== undefined && m.method === undefined) {
      this.pending.get(m.id)?.(m);
      this.pending.delete(m.id);
      return;
    }
    if (m.method === 'textDocument/publishDiagnostics') {
      const p = m.params as { uri: string; version?: number; diagnostics: LspDiagnostic[] };
      this.diagnostics.set(p.uri, { version: p.version, items: p.diagnostics });
      for (const w of this.waiters.splice(0)) w();
      return;
    }
    if (m.id !== undefined) {
      // Requests from the server: its settings, and capability registrations.
      const result = m.method === 'workspace/configuration'
        ? ((m.params as { items: Array<{ section?: string }> }).items.map((i) => (i.section === 'yaml' ? SETTINGS.yaml : i.section ? null : SETTINGS)))
        : null;
      this.send({ jsonrpc: '2.0', id: m.id, result });
    }
  }
}
