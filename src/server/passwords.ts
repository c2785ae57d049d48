// Accounts for POST /api/authenticate. Passwords live only as scrypt hashes (in memory: the
// accounts come from --user flags on every start) and are compared in constant time.

import { randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export interface UserSpec {
  email: string;
  password: string;
  organization_id: number;
}

interface StoredUser {
  salt: Buffer;
  hash: Buffer;
  organization_id: number;
}

const KEYLEN = 32;

export class Accounts {
  private readonly users = new Map<string, StoredUser>();
  // Compared against when the email is unknown, so a miss costs the same scrypt as a hit.
  // Made on first use: a server without accounts should not pay a scrypt at start.
  private decoyUser: StoredUser | undefined;

  constructor(users: readonly UserSpec[]) {
    for (const u of users) {
      const salt = randomBytes(16);
      this.users.set(u.email.toLowerCase(), { salt, hash: scryptSync(u.password, salt, KEYLEN), organization_id: u.organization_id });
    }
  }

  private get decoy(): StoredUser {
    if (!this.decoyUser) {
      const salt = randomBytes(16);
      this.decoyUser = { salt, hash: scryptSync(randomBytes(16), salt, KEYLEN), organization_id: 0 };
    }
    return this.decoyUser;
  }

  /** The organization of the account, or null when the email or password is wrong. */
  async check(email: string, password: string): Promise<number | null> {
    const user = this.users.get(email.toLowerCase());
    const target = user ?? this.decoy;
    // Async: a login must not stall every other request for the length of a scrypt.
    const candidate = await scryptAsync(password, target.salt, KEYLEN);
    const same = timingSafeEqual(candidate, target.hash);
    return user && same ? user.organization_id : null;
  }
}
