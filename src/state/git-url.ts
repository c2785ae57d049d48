// `git+REMOTE#BRANCH` state URLs (CONTRACT.md "State"): what the remote and branch are, and how
// to name them in messages without the password or token a URL may carry.

export const DEFAULT_STATE_BRANCH = 'menuctl-state';

export interface GitStateUrl {
  /** As git takes it: a URL (`https://...`, `ssh://...`, `file://...`), `user@host:path`, or a path. */
  remote: string;
  branch: string;
  /** The whole URL for messages: a password (and an http user name, which may be a token) masked. */
  shown: string;
  /** A local path as written (relative ones are resolved against the caller's directory). */
  isPath: boolean;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
// `user@host:path` (git's scp-like ssh syntax). `x::y` is git's transport-helper form (`ext::`
// runs commands): not a place to keep state, and refused rather than guessed at.
const SCP_LIKE = /^(?:[^@/:\s]+@)?[^@/:\s]+:(?!:)/;
const HELPER = /^[a-z][a-z0-9+.-]*::/i;
const USAGE = 'write git+URL#BRANCH, e.g. git+https://github.com/acme/menus.git#menuctl-state or git+file:///srv/menus.git';

export function parseGitStateUrl(url: string): GitStateUrl {
  // A URL refused here may be malformed in its credentials: everything up to its last `@` goes.
  const bad = (why: string) => new Error(`${url.replace(/^(git\+(?:[a-z][a-z0-9+.-]*:\/\/)?).*@/is, '$1***@')} is not a git state URL: ${why}; ${USAGE}`);
  if (!url.startsWith('git+')) throw bad('it does not start with git+');
  // The last `#`: a password with a raw `#` (it should be %23) stays in the remote, not the branch.
  const rest = url.slice(4);
  const hash = rest.lastIndexOf('#');
  const remote = hash < 0 ? rest : rest.slice(0, hash);
  const branch = hash < 0 ? DEFAULT_STATE_BRANCH : rest.slice(hash + 1);
  if (remote === '') throw bad('the remote is empty');
  if (/[\s\x00-\x1f\x7f]/.test(remote)) throw bad('the remote contains a space or a control character');
  // A leading `-` would read as an option to git or ssh.
  if (remote.startsWith('-')) throw bad('the remote starts with "-"');
  if (HELPER.test(remote)) throw bad('git\'s transport::address form is not supported');
  if (SCHEME.test(remote) && remote.replace(SCHEME, '') === '') throw bad('the URL has no host or path');
  const branchProblem = checkBranch(branch);
  if (branchProblem) throw bad(`the branch ${branchProblem}`);
  const isPath = !SCHEME.test(remote) && !SCP_LIKE.test(remote);
  // `https://user:pa/ss@host`: a raw `/` ends the authority, so the password would be read as the
  // host and a path, never split off, and reach git's command line. `user:pass@host:path` is no
  // ssh password either (git reads `user` as the host).
  const authority = SCHEME.test(remote) ? remote.replace(SCHEME, '').split('/')[0]! : '';
  if (SCHEME.test(remote) && !authority.includes('@') && /:(?!\d*$)/.test(authority) && remote.replace(SCHEME, '').includes('@')) {
    throw bad('the password seems to hold a raw "/" (write it as %2F), or the URL is not scheme://USER:PASSWORD@HOST/PATH');
  }
  if (!SCHEME.test(remote) && SCP_LIKE.test(remote) && /^[^@]*:[^@]*@/.test(remote)) {
    throw bad('a password in an scp-like address (user:pass@host:path) would reach ssh\'s command line; use an SSH key or agent');
  }
  const userinfo = USERINFO.exec(remote);
  if (userinfo && !HTTP_LIKE.test(userinfo[1]!) && userinfo[2]!.includes(':')) {
    throw bad('a password in this kind of URL would be handed to ssh on its command line; use an SSH key or agent');
  }
  const credentials = splitCredentials(remote).credentials;
  if (credentials && /[\n\r\0]/.test(credentials.username + credentials.password)) {
    throw bad('its user name or password contains a line break, which git\'s credential protocol cannot carry');
  }
  return { remote, branch, isPath, shown: `git+${maskUrls(remote)}#${branch}` };
}

const USERINFO = /^([a-z][a-z0-9+.-]*):\/\/([^/]*)@/i;
/** Schemes whose URL credentials git hands to the server (basic auth); GitHub takes a token as the user name. */
const HTTP_LIKE = /^(https?|ftps?)$/i;

export interface RemoteCredentials {
  username: string;
  password: string;
}

/**
 * An http(s) or ftp(s) remote without the user name and password its URL carries, and those
 * (percent-decoded); other remotes as they are. git is then given the credentials by a helper
 * that reads them from its environment (src/state/git.ts), never on a command line, where
 * every user of the machine sees them in `ps`. A user name alone is a token (GitHub's
 * `https://TOKEN@github.com/...`) and goes with an empty password, as GitHub and GitLab take it.
 */
export function splitCredentials(remote: string): { url: string; credentials: RemoteCredentials | null } {
  const m = USERINFO.exec(remote);
  if (!m || !HTTP_LIKE.test(m[1]!)) return { url: remote, credentials: null };
  const userinfo = m[2]!;
  const colon = userinfo.indexOf(':');
  const username = percentDecode(colon >= 0 ? userinfo.slice(0, colon) : userinfo);
  const password = colon >= 0 ? percentDecode(userinfo.slice(colon + 1)) : '';
  return { url: `${m[1]}://${remote.slice(m[0].length)}`, credentials: { username, password } };
}

/** `scheme://host[:port]` of a URL: what a credential setting is scoped to. */
export function urlOrigin(url: string): string | null {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i.exec(url);
  return m ? m[1]! : null;
}

function percentDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s; // not valid percent-encoding: taken as written, as git would
  }
}

/** Why `name` is not a branch git accepts (git check-ref-format), or null. */
function checkBranch(name: string): string | null {
  if (name === '') return 'is empty (leave out the # for the default, menuctl-state)';
  // `@` is legal in git but refused here: it is what a password with a raw `#` leaves behind.
  if (/[\x00-\x20\x7f~^:?*[\\@]/.test(name)) return 'contains a character git or menuctl refuses (space, ~ ^ : ? * [ \\ @)';
  if (name.startsWith('-') || name.startsWith('/') || name.endsWith('/')) return 'starts with "-" or starts or ends with "/"';
  if (name.includes('..') || name.includes('//') || name.endsWith('.') || name.endsWith('.lock')) {
    return 'contains ".." or "//", or ends with "." or ".lock"';
  }
  if (name.split('/').some((part) => part.startsWith('.'))) return 'has a part that starts with "."';
  return null;
}

/**
 * Masks the credentials of every `scheme://userinfo@` in `text`: a password always; for http(s)
 * and ftp(s) the user name too, since GitHub and GitLab take a token as the user name.
 */
export function maskUrls(text: string): string {
  // Up to the last `@` before the path: a password may hold quotes, or a raw `@` or `:`.
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^/\s]*)@/gi, (_all, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    if (colon >= 0) return `${scheme}${userinfo.slice(0, colon)}:***@`;
    return /^(https?|ftps?):\/\/$/i.test(scheme) ? `${scheme}***@` : `${scheme}${userinfo}@`;
  });
}

/** The secrets `remote` carries (as written and percent-decoded), for scrubbing git's messages. */
export function urlSecrets(remote: string): string[] {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/]*)@/i.exec(remote);
  if (!m) return [];
  const [, scheme, userinfo] = m as unknown as [string, string, string];
  const colon = userinfo.indexOf(':');
  const raw = colon >= 0 ? [userinfo.slice(colon + 1)] : /^(https?|ftps?)$/i.test(scheme) ? [userinfo] : [];
  const out = new Set<string>();
  for (const s of raw) {
    if (s.length < 3) continue; // too short to scrub without mangling ordinary words
    out.add(s);
    try {
      out.add(decodeURIComponent(s));
    } catch {
      // not valid percent-encoding: the raw form is enough
    }
  }
  return [...out];
}

/** `text` with every URL credential masked and every known secret replaced by ***. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = maskUrls(text);
  for (const s of secrets) out = out.split(s).join('***');
  return out;
}
