// Tokens: HS256 JWTs via jose, claims organization_id (integer) and exp. Nothing else is accepted:
// jose rejects alg "none" and every algorithm outside the allow-list, bad signatures and expiry.

import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { httpError, type HttpError } from './errors.js';

export const TOKEN_LIFETIME = '2h';

export class TokenAuthority {
  private readonly key: Uint8Array;
  // Verified tokens by their exact text: a repeat request skips the HMAC, and the expiry is
  // still checked on every hit. Bounded so a flood of distinct tokens cannot grow memory.
  private readonly cache = new Map<string, { org: number; expMs: number }>();
  private static readonly CACHE_MAX = 10_000;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  async mint(org: number, expiresIn: string = TOKEN_LIFETIME): Promise<string> {
    return new SignJWT({ organization_id: org })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(expiresIn)
      .sign(this.key);
  }

  /** The organization of a valid token, or a 401 HttpError. */
  async verify(token: string): Promise<number> {
    const hit = this.cache.get(token);
    if (hit) {
      if (hit.expMs > Date.now()) return hit.org;
      this.cache.delete(token);
      throw unauthorized('token_expired', 'the token has expired: obtain a new one');
    }
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], requiredClaims: ['exp'] }));
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw unauthorized('token_expired', 'the token has expired: obtain a new one');
      throw unauthorized('invalid_token', 'the token is not a valid HS256 JWT signed by this server');
    }
    const org = payload.organization_id;
    if (typeof org !== 'number' || !Number.isSafeInteger(org) || org < 1) {
      throw unauthorized('invalid_token', 'the token has no integer organization_id claim');
    }
    if (this.cache.size >= TokenAuthority.CACHE_MAX) this.cache.clear();
    this.cache.set(token, { org, expMs: (payload.exp as number) * 1000 });
    return org;
  }
}

export function unauthorized(code: string, detail: string): HttpError {
  return httpError(401, code, detail, { header: 'Authorization' });
}

/** The token from `Authorization: <JWT>` or `Authorization: Bearer <JWT>`. */
export function bearerToken(header: string | undefined): string {
  if (!header || header.trim() === '') {
    throw unauthorized('missing_token', 'send the JWT in the Authorization header');
  }
  const value = header.trim();
  const m = /^Bearer\s+(.+)$/i.exec(value);
  return (m ? m[1]! : value).trim();
}
