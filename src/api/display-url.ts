// A URL as it may be shown: in output, errors and JSON. `http://user:password@host` is a valid
// API URL (MENUCTL_API_URL may carry credentials), and credentials are never printed
// (CONTRACT.md, Connecting to an API), so the user-info part is dropped before showing it.

const SCHEME = /^([a-z][a-z0-9+.-]*:\/\/)?/i;

/** The URL without its username and password; the rest exactly as given. */
export function displayUrl(url: string): string {
  // Textual, not `new URL().href`: the user should recognise what they typed (no added
  // trailing slash, no normalised host).
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL (e.g. a password with a '/' in it): where its credentials end cannot be told,
    // so drop everything up to the last '@'.
    return url.includes('@') ? url.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/is, '$1') : url;
  }
  if (parsed.username === '' && parsed.password === '' && !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(url)) return url;
  const scheme = SCHEME.exec(url)![0];
  const rest = url.slice(scheme.length);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const at = authority.lastIndexOf('@');
  return at === -1 ? url : scheme + rest.slice(at + 1);
}
