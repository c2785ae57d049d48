// Credentials: a JWT given as is (MENUCTL_TOKEN), or email + password exchanged for one at
// POST /api/authenticate. The login happens lazily, once however many requests start
// together (single flight), and again when the server says the token expired (tokens live
// 2 hours; a long apply can outlive one). The password stays in this closure: it is never
// part of an error, a log line or a message.

// The subpath: `jose` itself loads the whole library (every module, at start-up) for this one function.
import { decodeJwt } from 'jose/jwt/decode';

export interface Credentials {
  token?: string;
  email?: string;
  password?: string;
}

/** Exchanges email and password for a JWT (the client's POST /api/authenticate). */
export type Login = (email: string, password: string) => Promise<string>;

export class Auth {
  private token: string | null;
  private pending: Promise<string> | null = null;

  constructor(private readonly creds: Credentials, private readonly login: Login) {
    this.token = creds.token ?? null;
  }

  /** Whether a rejected token can be replaced by logging in again. */
  get canLogin(): boolean {
    return Boolean(this.creds.email && this.creds.password);
  }

  get hasCredentials(): boolean {
    return this.token !== null || this.canLogin;
  }

  /** The token to send, logging in first if needed; null without credentials. */
  async current(): Promise<string | null> {
    if (this.token !== null) return this.token;
    if (!this.canLogin) return null;
    return this.refresh();
  }

  /**
   * Called after a 401 for `rejected`. Returns the token to retry with, or null when there is
   * nothing better to try. Requests that failed with an already replaced token just take the
   * new one instead of logging in again.
   */
  async renew(rejected: string | null): Promise<string | null> {
    if (!this.canLogin) return null;
    if (this.token !== null && this.token !== rejected) return this.token;
    this.token = null;
    return this.refresh();
  }

  private refresh(): Promise<string> {
    this.pending ??= this.login(this.creds.email!, this.creds.password!).then(
      (token) => {
        this.token = token;
        this.pending = null;
        return token;
      },
      (err: unknown) => {
        this.pending = null;
        throw err;
      },
    );
    return this.pending;
  }
}

/**
 * The `organization_id` claim of a JWT, without verifying it: verification is the server's
 * job, and this is only a guard against acting on the wrong organization.
 */
export function organizationFromToken(token: string): number | null {
  try {
    const claim = decodeJwt(token).organization_id;
    const org = typeof claim === 'string' ? Number(claim) : claim;
    return typeof org === 'number' && Number.isInteger(org) ? org : null;
  } catch {
    return null;
  }
}
