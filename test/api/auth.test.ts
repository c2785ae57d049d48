import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { Auth, organizationFromToken } from '../../src/api/auth.js';

const sign = (claims: Record<string, unknown>) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('k'.repeat(32)));

describe('Auth', () => {
  it('logs in once for many concurrent callers', async () => {
    let logins = 0;
    const auth = new Auth({ email: 'a@x', password: 'pw' }, async () => { logins++; return `t${logins}`; });
    const tokens = await Promise.all([auth.current(), auth.current(), auth.current()]);
    expect(tokens).toEqual(['t1', 't1', 't1']);
    expect(logins).toBe(1);
  });

  it('renews a rejected token once, and hands the new one to callers that held the old', async () => {
    let logins = 0;
    const auth = new Auth({ email: 'a@x', password: 'pw' }, async () => { logins++; return `t${logins}`; });
    await auth.current();
    const [a, b] = await Promise.all([auth.renew('t1'), auth.renew('t1')]);
    expect([a, b]).toEqual(['t2', 't2']);
    expect(await auth.renew('t1')).toBe('t2');
    expect(logins).toBe(2);
  });

  it('cannot renew a static token', async () => {
    const auth = new Auth({ token: 'static' }, async () => 'never');
    expect(await auth.current()).toBe('static');
    expect(await auth.renew('static')).toBeNull();
  });

  it('has no token without credentials', async () => {
    const auth = new Auth({}, async () => 'never');
    expect(await auth.current()).toBeNull();
    expect(auth.hasCredentials).toBe(false);
  });

  it('lets a failed login be tried again', async () => {
    let calls = 0;
    const auth = new Auth({ email: 'a@x', password: 'pw' }, async () => {
      calls++;
      if (calls === 1) throw new Error('down');
      return 'ok';
    });
    await expect(auth.current()).rejects.toThrow('down');
    expect(await auth.current()).toBe('ok');
  });
});

describe('organizationFromToken', () => {
  it('reads the organization_id claim without verifying', async () => {
    expect(organizationFromToken(await sign({ organization_id: 62 }))).toBe(62);
  });
  it('is null without the claim or for garbage', async () => {
    expect(organizationFromToken(await sign({ sub: 'x' }))).toBeNull();
    expect(organizationFromToken('not-a-jwt')).toBeNull();
  });
});
