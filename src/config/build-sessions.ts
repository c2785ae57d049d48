// Raw `sessions:` of an action -> Session models (docs/sessions.md). Kept beside build.ts, not in
// it, so the session format grows without touching the builder of every other kind. Tolerant like
// the builder: what the schema rejected is skipped, so the other checks still run.

import type { Fixture, Session, SessionSms, SourceLoc } from '../model/types.js';
import { below, type ConfigSource, type Segment } from './source.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the builder lends: where things are, and how it reads values and expectations. */
export interface SessionBuildHelpers {
  src: ConfigSource;
  /** Text of a scalar as written (`amount: 0500` stays "0500"). */
  written(raw: Obj, key: string): string | undefined;
  expect(raw: unknown): Fixture['expect'];
  remember<T extends object>(model: T, path: Segment[]): T;
  /** Sessions not built (one expecting a parser the selected environment leaves out). */
  skip?(raw: Obj): boolean;
}

export function buildSessions(action: Obj, actionPath: readonly Segment[], h: SessionBuildHelpers): Session[] {
  const list = Array.isArray(action.sessions) ? action.sessions : [];
  return list.flatMap((raw, i) => (isObj(raw) && !h.skip?.(raw) ? buildSession(raw, [...actionPath, 'sessions', i], h) : []));
}

function buildSession(raw: Obj, path: Segment[], h: SessionBuildHelpers): Session[] {
  if (typeof raw.name !== 'string') return [];
  const screensRaw = Array.isArray(raw.screens) ? raw.screens : [];
  const screens: string[] = [];
  const screenLocs: SourceLoc[] = [];
  screensRaw.forEach((s, i) => {
    if (typeof s !== 'string') return;
    screens.push(s);
    // Lazy: a line and column are worked out only if a finding points at this screen.
    screenLocs.push(h.src.lazyLocate(below(path, 'screens', i)));
  });
  const session: Session = {
    name: raw.name,
    variables: variablesOf(raw.variables, h),
    screens,
    sms: smsOf(raw.sms),
    expect: h.expect(raw.expect),
    screenLocs,
  };
  return [h.remember(session, path)];
}

function variablesOf(raw: unknown, h: SessionBuildHelpers): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObj(raw)) return out;
  for (const k of Object.keys(raw)) {
    const v = h.written(raw, k);
    // Own data property: a variable named __proto__ must not reach the prototype setter.
    if (v !== undefined) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function smsOf(raw: unknown): SessionSms[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((m) => (isObj(m) && typeof m.sender === 'string' && typeof m.message === 'string'
    ? [{ sender: m.sender, message: m.message }] : []));
}
