// A tiny fetch wrapper for the server's contract tests: JSON in, status + parsed JSON out.

import type { TestServer } from '../helpers/server.js';

export interface Res {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export type Call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Res>;

export function client(s: Pick<TestServer, 'url' | 'token'>, token: string | null = s.token): Call {
  return async (method, path, body, headers = {}) => {
    const h: Record<string, string> = {};
    if (token !== null) h.Authorization = token;
    if (body !== undefined) h['Content-Type'] = 'application/json';
    const r = await fetch(s.url + path, {
      method,
      headers: { ...h, ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : undefined };
  };
}

export function step(order: number, kind: 'press' | 'variable' | 'select' | 'pin' | 'ok', value?: string, extra: Record<string, string> = {}) {
  const table = {
    press: ['false', 'false', value ?? '1'],
    variable: ['true', 'false', value ?? 'phone'],
    select: ['true', 'true', value ?? 'bundle'],
    pin: ['false', 'false', 'pin'],
    ok: ['false', 'false', '-'],
  } as const;
  const [isParam, convert, v] = table[kind];
  return { order: String(order), is_param: isParam, convert_val_to_num: convert, value: v, description: '', ...extra };
}

export function actionBody(over: Record<string, unknown> = {}) {
  return {
    custom_action: {
      name: 'Check balance',
      root_code: '*144#',
      transport_type: 'ussd',
      world_operator_ids: ['2172', '2173'],
      custom_steps_attributes: { 0: step(0, 'press', '1', { expected_text: 'My account' }), 1: step(1, 'pin') },
      ...over,
    },
  };
}

export function parserBody(actionId: string, over: Record<string, unknown> = {}) {
  return {
    parser: {
      action_id: actionId,
      status: 'succeeded',
      regex: 'Your balance is (?<balance>[\\d,.]+).*',
      category: 'balance',
      user_message: 'Balance is {balance}',
      ...over,
    },
  };
}

export function pointers(res: Res): string[] {
  return (res.body.errors as Array<{ source?: { pointer?: string } }>).map((e) => e.source?.pointer ?? '');
}
