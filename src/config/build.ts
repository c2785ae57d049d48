// Raw file data -> the desired model (src/model/types.ts), defaults filled. Every resource,
// parser, fixture and operator ref knows where it came from (its file and path, see origin.ts);
// its `loc` is worked out only if something asks for it. Tolerant of data the schema rejected (it
// skips what it cannot read) so the semantic checks still run and every problem is reported in
// one pass.

import type { DesiredAction, DesiredApp, DesiredParser, Fixture, OperatorRef, Managed, ParserStatus, Step, TargetType } from '../model/types.js';
import { PARSER_STATUSES, TARGET_TYPES } from '../model/types.js';
import { ACTION_TABLE } from '../model/kinds/action-fields.js';
import { APP_TABLE } from '../model/kinds/app-fields.js';
import { shaped, type FieldTable, type Fields } from '../model/kinds/fields.js';
import { KINDS } from '../model/kinds/index.js';
import { PARSER_TABLE } from '../model/kinds/parser-fields.js';
import { attachOrigin, encodePath, PATH, sealOrigin, SOURCE, type Sealable } from './origin.js';
import { buildSessions } from './build-sessions.js';
import { inEnvironment } from './environments.js';
import { below, type ConfigSource, type Segment } from './source.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (o: Obj, k: string): string | undefined => (typeof o[k] === 'string' ? (o[k] as string) : undefined);
const list = (o: Obj, k: string): unknown[] => (Array.isArray(o[k]) ? (o[k] as unknown[]) : []);
/** The same list without the spare room flatMap leaves (four lists an action, each kept). */
const exact = <T>(list: T[]): T[] => list.slice();
const oneOf = <T extends string>(v: unknown, allowed: readonly T[], dflt: T): T =>
  (allowed as readonly unknown[]).includes(v) ? (v as T) : dflt;

/**
 * A model object's constructor: its table's scalar fields as written (defaults filled), what
 * `more` adds (an action's operators, steps, parsers, tests), then its origin. One per kind, made
 * here once: each object is laid out as the literal of its keys would be (fields.ts `shaped`).
 */
function modelOf<T extends Fields>(table: FieldTable<T>): new (raw: Obj, path: Segment[], more: (o: Obj) => void) => Obj {
  return shaped<Obj, Segment[], (o: Obj) => void>((o, raw, path, more) => {
    table.readConfig(raw, o);
    more!(o);
    o[PATH] = encodePath(path!);
  }) as never;
}
const ParserModel = modelOf(PARSER_TABLE);
const ActionModel = modelOf(ACTION_TABLE);
const AppModel = modelOf(APP_TABLE);
const nothing = (): void => {};

export interface FileModel {
  file: string;
  src: ConfigSource;
  organization_id?: number;
  actions: DesiredAction[];
  apps: DesiredApp[];
  /** `ignore:` address patterns (unmanaged live resources menuctl leaves alone). */
  ignore: string[];
}

export class ModelBuilder {
  constructor(private readonly src: ConfigSource, private readonly environment?: string) {}

  private remember<T extends object>(model: T, path: Segment[]): T {
    return attachOrigin(model, { src: this.src, path });
  }

  /** Text of a scalar as written: keeps `press: 01` as "01", not 1. */
  private written(raw: Obj, key: string): string | undefined {
    return this.src.written(raw, key);
  }

  /**
   * Adds `id` and `protected`. Assigned rather than spread into the literal: a spread gives each
   * of 30,000 objects a slow shape.
   */
  private managed<T extends Managed>(out: T, raw: Obj): T {
    const id = this.written(raw, 'id');
    if (id !== undefined) out.id = id;
    if (raw.protected === true) out.protected = true;
    return out;
  }

  file(root: Obj): FileModel {
    const model: FileModel = { file: this.src.file, src: this.src, actions: [], apps: [], ignore: [] };
    if (typeof root.organization_id === 'number') model.organization_id = root.organization_id;
    for (const pattern of list(root, 'ignore')) if (typeof pattern === 'string') model.ignore.push(pattern);
    list(root, 'actions').forEach((a, i) => {
      const action = isObj(a) && inEnvironment(a, this.environment) ? this.action(a, ['actions', i]) : undefined;
      if (action) model.actions.push(action);
    });
    list(root, 'apps').forEach((a, i) => {
      const app = isObj(a) && inEnvironment(a, this.environment) ? this.app(a, ['apps', i]) : undefined;
      if (app) model.apps.push(app);
    });
    return model;
  }

  action(raw: Obj, path: Segment[]): DesiredAction | undefined {
    if (str(raw, KINDS.action.keyLabel) === undefined) return undefined;
    // Operators and steps have readers of their own (origins, shared steps); then what the action holds.
    const action = this.managed(this.sealed<DesiredAction>(new ActionModel(raw, path, (o) => {
      o.operators = exact(list(raw, 'operators').flatMap((ref, i) => this.operator(ref, below(path, 'operators', i))));
      o.steps = exact(list(raw, 'steps').flatMap((s) => this.step(s)));
      o.parsers = exact(list(raw, 'parsers').flatMap((p, i) => (isObj(p) && inEnvironment(p, this.environment) ? this.parser(p, below(path, 'parsers', i)) : [])));
      o.tests = exact(list(raw, 'tests').flatMap((f, i) => (isObj(f) && !this.expectsAbsent(raw, f) ? this.fixture(f, below(path, 'tests', i)) : [])));
    })), raw);
    const renamed = str(raw, 'renamed_from');
    if (renamed !== undefined) action.renamed_from = renamed;
    if (raw.sessions !== undefined) {
      action.sessions = buildSessions(raw, path, {
        src: this.src, written: (o, k) => this.written(o, k), expect: (e) => this.expect(e), remember: (m, p) => this.remember(m, p),
        skip: (s) => this.expectsAbsent(raw, s),
      });
    }
    return sealOrigin(action);
  }

  /** A model object with this file as its source (its path is set by its constructor). */
  private sealed<T>(o: Obj): T & Sealable {
    (o as Record<PropertyKey, unknown>)[SOURCE] = this.src;
    return o as unknown as T & Sealable;
  }

  /** A fixture or session for a parser this environment leaves out is not run in it (it could only fail). */
  private expectsAbsent(action: Obj, fixture: Obj): boolean {
    if (this.environment === undefined || !isObj(fixture.expect)) return false;
    const category = fixture.expect.category;
    return list(action, 'parsers').some((p) => isObj(p) && p.category === category && !inEnvironment(p, this.environment));
  }

  private operator(ref: unknown, path: Segment[]): OperatorRef[] {
    if (typeof ref !== 'number' && typeof ref !== 'string') return [];
    return [sealOrigin<OperatorRef & Sealable>({ ref, [PATH]: encodePath(path), [SOURCE]: this.src })];
  }

  /** One frozen object per distinct step: actions repeat the same few (pin, ok, press 1...). */
  private readonly steps = new Map<string, Step>();

  private step(s: unknown): Step[] {
    const step = this.readStep(s);
    if (step === undefined) return [];
    const key = JSON.stringify(step);
    let shared = this.steps.get(key);
    if (shared === undefined) this.steps.set(key, (shared = Object.freeze(step)));
    return [shared];
  }

  private readStep(s: unknown): Step | undefined {
    if (s === 'pin' || s === 'ok') return { kind: s };
    if (!isObj(s)) return undefined;
    const description = str(s, 'description');
    const d = description !== undefined ? { description } : {};
    if (s.press !== undefined) {
      const value = this.written(s, 'press');
      if (value === undefined) return undefined;
      const expect = str(s, 'expect');
      return { kind: 'press', value, ...(expect !== undefined ? { expect } : {}), ...d };
    }
    const variable = str(s, 'variable');
    if (variable !== undefined) return { kind: 'variable', name: variable, ...d };
    const select = str(s, 'select');
    if (select !== undefined) return { kind: 'select', name: select, ...d };
    if (s.pin === true) return { kind: 'pin', ...d };
    if (s.ok === true) return { kind: 'ok', ...d };
    return undefined;
  }

  parser(raw: Obj, path: Segment[]): DesiredParser[] {
    if (str(raw, KINDS.parser.keyLabel) === undefined) return [];
    // As written: a ussd parser's sender is dropped by resolveParser (model/kinds/parser.ts); the check warns.
    const parser = this.managed(this.sealed<DesiredParser>(new ParserModel(raw, path, nothing)), raw);
    const renamed = str(raw, 'renamed_from');
    if (renamed !== undefined) parser.renamed_from = renamed;
    return [sealOrigin(parser)];
  }

  fixture(raw: Obj, path: Segment[]): Fixture[] {
    const message = str(raw, 'message');
    if (message === undefined) return [];
    const sender = str(raw, 'sender');
    const channel = oneOf<TargetType>(raw.channel, TARGET_TYPES, sender !== undefined ? 'sms' : 'ussd');
    const fixture: Fixture & Sealable = { message, channel, expect: this.expect(raw.expect), [PATH]: encodePath(path), [SOURCE]: this.src };
    if (sender !== undefined) fixture.sender = sender;
    return [sealOrigin(fixture)];
  }

  private expect(raw: unknown): Fixture['expect'] {
    if (!isObj(raw)) return 'none';
    const out: Exclude<Fixture['expect'], 'none'> = {};
    const category = str(raw, 'category');
    if (category !== undefined) out.category = category;
    if ((PARSER_STATUSES as readonly unknown[]).includes(raw.status)) out.status = raw.status as ParserStatus;
    if (isObj(raw.variables)) {
      const vars: Record<string, string> = {};
      for (const k of Object.keys(raw.variables)) {
        const v = this.written(raw.variables, k);
        if (v !== undefined) Object.defineProperty(vars, k, { value: v, enumerable: true, writable: true, configurable: true });
      }
      out.variables = vars;
    }
    return out;
  }

  app(raw: Obj, path: Segment[]): DesiredApp | undefined {
    if (str(raw, KINDS.app.keyLabel) === undefined) return undefined;
    return sealOrigin(this.managed(this.sealed<DesiredApp>(new AppModel(raw, path, nothing)), raw));
  }
}
