// The last line of defence: the values of known-secret process variables, present when
// menuctl starts, are written as `***` in everything it prints and in the reports it writes, as
// GitHub Actions' `::add-mask::` does for a job's log. ${VAR} already cannot read them
// (src/config/interpolate.ts); this catches a value that reaches output some other way (a live
// resource's name that happens to hold it, an API error echoing it).
//
// A saved plan is not masked but refused (see planSecretProblems): `apply --plan` checks the file
// against the live API and the config's digest, and a masked value would be a different plan.
//
// Limits, documented in docs/config.md "Secrets in output": only whole values are found (a value
// split across two writes, or encoded other than as written or JSON-escaped, is not), and only
// values of at least MIN_LENGTH characters, so a variable holding `1` does not mask every `1`.

import { JsonPieces } from '../text/json-pieces.js';
import { CliError } from './exit.js';

/** Variables whose values are secret by name. */
const SECRET_NAMES = new Set([
  'MENUCTL_JWT_SECRET', 'PGPASSWORD', 'GITHUB_TOKEN', 'GH_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN', 'ACTIONS_RUNTIME_TOKEN',
  'NPM_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN',
]);
/**
 * menuctl's credentials (MENUCTL_TOKEN_PROD, MENUCTL_PASSWORD...) and, by convention, any name
 * ending in TOKEN, SECRET, PASSWORD or KEY (the action's `INPUT_GITHUB-TOKEN` included).
 */
const SECRET_PATTERN = /^MENUCTL_(?:TOKEN|PASSWORD)(?:_|$)|[_-](?:TOKEN|SECRET|PASSWORD|KEY)$/i;

export const MIN_LENGTH = 8;
export const MASK = '***';

export const isSecretName = (name: string): boolean => SECRET_NAMES.has(name) || SECRET_PATTERN.test(name);

export class SecretMask {
  private readonly pattern: RegExp | null;

  /** `secrets`: variable name -> value, the values already at least MIN_LENGTH long. */
  private constructor(private readonly secrets: ReadonlyMap<string, string>) {
    // Each value as written and JSON-escaped (a value with `"` or `\` is escaped in JSON output);
    // longest first, so a secret holding another is masked whole.
    const forms = new Set<string>();
    for (const v of secrets.values()) {
      forms.add(v);
      forms.add(JSON.stringify(v).slice(1, -1));
    }
    const sorted = [...forms].sort((a, b) => b.length - a.length);
    this.pattern = sorted.length === 0 ? null : new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
  }

  /** The known-secret values in `env` (a process environment). */
  static fromEnv(env: Record<string, string | undefined>): SecretMask {
    const secrets = new Map<string, string>();
    for (const [name, value] of Object.entries(env)) {
      if (value !== undefined && value.trim().length >= MIN_LENGTH && isSecretName(name)) secrets.set(name, value);
    }
    return new SecretMask(secrets);
  }

  get empty(): boolean {
    return this.pattern === null;
  }

  mask(text: string): string {
    if (!this.pattern) return text;
    this.pattern.lastIndex = 0;
    return this.pattern.test(text) ? text.replace(this.pattern, MASK) : text;
  }

  /** Names of the variables whose values occur in `text`; never the values. */
  namesIn(text: string): string[] {
    if (!this.pattern) return [];
    return [...this.secrets].filter(([, v]) => text.includes(v) || text.includes(JSON.stringify(v).slice(1, -1))).map(([n]) => n);
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A stream whose writes are masked. The wrapped stream keeps everything else (isTTY, columns,
 * events), so commands cannot tell the difference.
 */
export function maskedStream<T extends NodeJS.WritableStream>(stream: T, secrets: SecretMask): T {
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) || chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : null;
    const out = text === null ? chunk : secrets.mask(text);
    return (stream.write as (...a: unknown[]) => boolean)(out, ...rest);
  };
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write') return write;
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/**
 * Where a known secret's value occurs in a plan about to be saved: each place as the plan file's
 * JSON path, with the change's address when it is in one, and the variable's name (never the value).
 */
export function planSecretProblems(serialized: string, secrets: SecretMask): string[] {
  if (secrets.empty || secrets.namesIn(serialized).length === 0) return [];
  return secretProblemsIn([serialized], secrets);
}

/** planSecretProblems of a plan file's text in pieces (as written: the whole may not fit in a string). */
function secretProblemsIn(chunks: Iterable<string>, secrets: SecretMask): string[] {
  const problems: string[] = [];
  const visit = (value: unknown, path: string, address: string | undefined): void => {
    if (typeof value === 'string') {
      const names = secrets.namesIn(value);
      if (names.length > 0) problems.push(`${path}${address ? ` (${address})` : ''} holds the value of ${names.join(', ')}`);
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => visit(v, `${path}[${i}]`, address));
    } else if (value !== null && typeof value === 'object') {
      const obj = value as Record<string, unknown>;
      const here = typeof obj.address === 'string' && !secrets.namesIn(obj.address).length ? obj.address : address;
      for (const [k, v] of Object.entries(obj)) visit(v, path ? `${path}.${k}` : k, here);
    }
  };
  const pieces = new JsonPieces((at, value) => visit(value, at.length === 2 ? `${at[0]}[${at[1]}]` : at[0] ?? '', undefined));
  for (const chunk of chunks) pieces.push(chunk);
  pieces.end();
  return problems;
}

/**
 * The plan file's text in pieces (as planJsonChunks writes it, whole lines each), each passed on
 * only once it is looked through for known secrets: the first piece that holds a secret's value is
 * never written, and the error names each place in the plan (so an atomic write, a temp file until
 * the last piece, leaves no file, and no piece with the secret was ever on disk). `chunks` is
 * called again only then, to say where each value is.
 */
export function* refusingSecretsInPlan(option: string, file: string, chunks: () => Iterable<string>, secrets: SecretMask | undefined): Generator<string> {
  if (!secrets || secrets.empty) {
    yield* chunks();
    return;
  }
  for (const chunk of chunks()) {
    // A piece holds whole lines, so each string value is in one piece.
    if (secrets.namesIn(chunk).length > 0) {
      const problems = secretProblemsIn(chunks(), secrets);
      throw secretInPlan(option, file, problems.length > 0 ? problems : [`a piece of the plan holds the value of ${secrets.namesIn(chunk).join(', ')}`]);
    }
    yield chunk;
  }
}

function secretInPlan(option: string, file: string, problems: string[]): CliError {
  return new CliError(`${option} ${file}: not written, because the plan holds a secret's value: ${problems.join('; ')}. ` +
    'Masking it would make a plan that apply cannot check against the live API, and writing it would publish the secret. ' +
    'Change what carries the value (usually a live resource, or a ${VAR} whose MENUCTL_VAR_ variable holds a secret), then plan again.', { code: 'output.secret' });
}
