// The two routes that need no token: the world operator catalog and POST /api/authenticate.

import { FieldErrors, httpError, HttpError } from '../errors.js';
import { isObj, readString } from '../fields.js';
import { arraySource, listQuery, listReply, valueOf } from '../lists.js';
import type { Route } from '../router.js';
import { operatorResource } from '../serialize.js';

export const publicRoutes: Route[] = [
  {
    method: 'GET', pattern: '/api/world_operators', auth: false, body: false, write: false,
    query: (q, s) => {
      const country = q.get('country')?.trim().toLowerCase();
      return listQuery(q, s.lists, { own: country ? [['country', country]] : [] });
    },
    handle: (req) => {
      const country = valueOf(req.understood, 'country');
      const ops = country ? req.state.catalog.filter((o) => o.country_alpha2.toLowerCase() === country) : req.state.catalog;
      return listReply(req, arraySource(ops), operatorResource);
    },
  },
  {
    method: 'POST', pattern: '/api/authenticate', auth: false, body: true, forms: true, write: false,
    handle: async (req) => {
      const errs = new FieldErrors();
      // Unlike the resource writes, this body is not wrapped: { "email": ..., "password": ... },
      // or the same two fields of a form (multipart or urlencoded), as Hover's own apps send them.
      if (!isObj(req.body)) throw httpError(422, 'required', 'the body must be an object { "email": ..., "password": ... }', { pointer: '' });
      const obj = req.body;
      const email = readString(obj, 'email', '', { min: 1, max: 320, required: true }, errs);
      const password = readString(obj, 'password', '', { min: 1, max: 1024, required: true }, errs);
      errs.throwIfAny();
      // Before the password hash: a throttled guess costs nothing (login-throttle.ts).
      const wait = req.state.logins.begin(req.client);
      if (wait !== null) {
        throw new HttpError(429, [{ code: 'rate_limited', detail: `too many failed logins from this address: retry after ${wait} s` }],
          { 'Retry-After': String(wait) });
      }
      const org = await req.state.accounts.check(email!, password!);
      if (org === null) throw httpError(401, 'invalid_credentials', 'wrong email or password');
      req.state.logins.succeeded(req.client);
      return { status: 200, body: { auth_token: await req.state.tokens.mint(org) } };
    },
  },
];
