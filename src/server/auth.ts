// Tokens: HS256 JWTs via jose, claims organization_id (integer) and exp. Nothing else is accepted:
// jose rejects alg "none" and every algorithm outside the allow-list, bad signatures and expiry;
// a token issued in the future (iat beyond the clock-skew allowance) is refused here.

import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { httpError, type HttpError } from './errors.js';

export const TOKEN_LIFETIME = '2h';
/** Clocks of the issuer and this server may differ this much (s): the leeway on `exp`, `nbf` and `iat`. */
export const CLOCK_SKEW_S = 60;

/** Who a verified token speaks for: its organization, and the token itself by its claims. */
export interface Identity {
  org: number;
  /**
   * The token's claims in a canonical form: one token has one subject however its text is
   * spelled (Bearer or not, base64 variants that decode the same), so a per-token rate limit
   * cannot be multiplied by re-spelling the header.
   */
  subject: string;
}

export class TokenAuthority {
  private readonly key: Uint8Array;
  // Verified tokens by their exact text: a repeat request skips the HMAC, and the expiry is
  // still checked on every hit. Bounded so a flood of distinct tokens cannot grow memory.
  private readonly cache = new Map<string, Identity & { expMs: number }>();
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
    return (await this.identify(token)).org;
  }

  /** Who a valid token speaks for, or a 401 HttpError. */
  async identify(token: string): Promise<Identity> {
    const hit = this.cache.get(token);
    if (hit) {
      if (hit.expMs > Date.now()) return hit;
      this.cache.delete(token);
      throw unauthorized('token_expired', 'the token has expired: obtain a new one');
    }
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], requiredClaims: ['exp'], clockTolerance: CLOCK_SKEW_S }));
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw unauthorized('token_expired', 'the token has expired: obtain a new one');
      // Claims are checked after the signature: the token is this server's, one claim is wrong.
      if (err instanceof joseErrors.JWTClaimValidationFailed) {
        throw unauthorized('invalid_token', `the token's ${err.claim} claim is ${err.reason === 'missing' ? 'missing' : 'not valid'}: obtain a new token`);
      }
      throw unauthorized('invalid_token', 'the token is not a valid HS256 JWT signed by this server');
    }
    const org = payload.organization_id;
    if (typeof org !== 'number' || !Number.isSafeInteger(org) || org < 1) {
      throw unauthorized('invalid_token', 'the token has no integer organization_id claim');
    }
    // jose checks iat only against a maximum age; a token from the future is refused here.
    if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + CLOCK_SKEW_S) {
      throw unauthorized('token_not_yet_valid', `the token's iat is in the future (more than ${CLOCK_SKEW_S} s ahead of this server's clock): check the issuer's clock`);
    }
    const identity = { org, subject: canonicalClaims(payload), expMs: ((payload.exp as number) + CLOCK_SKEW_S) * 1000 };
    if (this.cache.size >= TokenAuthority.CACHE_MAX) this.cache.clear();
    this.cache.set(token, identity);
    return identity;
  }
}

function canonicalClaims(payload: Record<string, unknown>): string {
  return JSON.stringify(Object.keys(payload).sort().map((k) => [k, payload[k]]));
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
