// menuctl analyze: per parser, an automaton of the whole messages it matches on the device; per
// action, every pair of parsers that see the same messages compared (see docs/analyze.md).
import { createHash } from 'node:crypto';
import { originOf } from '../config/origin.js';
import type { ConfigSource } from '../config/source.js';
import type { DesiredAction, DesiredState } from '../model/types.js';
import { Engine } from './engine.js';
import { KeptFinding } from './finding.js';
import { fixtureOverlaps, uncovered } from './fixtures.js';
import { comparePair, type Analysed } from './pairs.js';
import { Automata, sameAudience, subjectsOf, type Subject } from './subjects.js';
import type { AnalysisResult } from './types.js';

/**
 * `states`: one per environment for a config that defines them (each may leave parsers out, or
 * give a pattern another value): an action that reads the same in several is analysed once, and
 * a finding they share is reported once.
 */
export async function analyze(states: DesiredState | readonly DesiredState[]): Promise<AnalysisResult> {
  const list: readonly DesiredState[] = Array.isArray(states) ? states : [states];
  const engine = new Engine();
  const found: KeptFinding[] = [];
  const summary = { parsers: 0, analysed: 0 };
  const recurring = new Recurring(list);
  const automata = new Automata(recurring.actions());
  let lastSource: ConfigSource | undefined;
  try {
    for (const action of recurring.actions()) {
      const reported = recurring.next(action.name);
      const subjects = subjectsOf(action, automata);
      summary.parsers += subjects.length;
      summary.analysed += subjects.filter((s) => s.automaton.ok).length;
      // Within the action too, as before: a state built by hand may give two parsers one category.
      const here = new Set<string>();
      for (const f of await analyzeAction(action, subjects, engine)) {
        const key = JSON.stringify([f.kind, f.parsers, f.message, f.location]);
        if (here.has(key) || reported?.(key)) continue;
        here.add(key);
        found.push(f);
      }
      // Actions come a file at a time: a file left behind gives back its (inflated) text and the
      // Document its locations were read from.
      const src = originOf(action)?.src;
      if (src !== lastSource) lastSource?.releasePositions();
      lastSource = src;
    }
  } finally {
    await engine.close();
  }
  lastSource?.releasePositions();
  return { findings: found.sort(KeptFinding.compare), summary };
}

/**
 * Which actions are analysed, and what is remembered of a name while another analysed action of
 * that name is still to come. An action that reads as one before it (another environment's, most
 * often) is skipped. A finding names its action in its parsers' addresses, so only actions of one
 * name can repeat each other's findings: the keys of those reported are kept for the name's later
 * actions, and forgotten after its last. A config without environments has one action per name,
 * and keeps no key (kept for every finding to the end, they weighed more than the findings).
 */
class Recurring {
  /**
   * Per state, by index: 1 for an action that reads as one before it. By place, not by object:
   * one object may be in several states.
   */
  private readonly skipped: Uint8Array[];
  /** Analysed actions of each name not reached yet, for names with more than one. */
  private readonly left = new Map<string, number>();
  private readonly reported = new Map<string, Set<string>>();

  constructor(private readonly states: readonly DesiredState[]) {
    const first = new Map<string, DesiredAction>();
    const variants = new Map<string, Set<string>>();
    this.skipped = states.map((state) => new Uint8Array(state.actions.length));
    for (const [s, state] of states.entries()) {
      for (const [i, action] of state.actions.entries()) {
        const earlier = first.get(action.name);
        if (!earlier) {
          first.set(action.name, action);
          continue;
        }
        let seen = variants.get(action.name);
        if (!seen) variants.set(action.name, (seen = new Set([variantOf(earlier)])));
        const variant = variantOf(action);
        if (seen.has(variant)) this.skipped[s]![i] = 1;
        else seen.add(variant);
      }
    }
    for (const [name, seen] of variants) if (seen.size > 1) this.left.set(name, seen.size);
  }

  /**
   * For an analysed action, reached now: whether a finding of this key (its kind, parsers, message
   * and location) was reported already, for an action of the same name (it is noted as reported).
   * Null when the action is the only one of its name.
   */
  next(name: string): ((key: string) => boolean) | null {
    const left = this.left.get(name);
    if (left === undefined) return null;
    let keys = this.reported.get(name);
    if (!keys) this.reported.set(name, (keys = new Set()));
    if (left > 1) this.left.set(name, left - 1);
    else {
      // The last action of this name: its keys are read once more, then forgotten.
      this.left.delete(name);
      this.reported.delete(name);
    }
    const known = keys;
    return (key) => {
      // Hashed: the keys as JSON weighed more than the findings.
      const hash = createHash('sha256').update(key).digest('base64');
      if (known.has(hash)) return true;
      known.add(hash);
      return false;
    };
  }

  /** The actions analysed (those no action before reads as), in order. */
  *actions(): Generator<DesiredAction> {
    for (const [s, state] of this.states.entries()) {
      for (const [i, action] of state.actions.entries()) if (this.skipped[s]![i] === 0) yield action;
    }
  }
}

/** An action's variant: what its analysis reads, hashed (not their JSON, which a big config holds once per action). */
function variantOf(action: DesiredAction): string {
  return createHash('sha256').update(variantKey(action)).digest('base64');
}

/** What the analysis of one action reads: its parsers and its fixtures. */
function variantKey(action: DesiredAction): string {
  return JSON.stringify([
    action.name,
    action.parsers.map((p) => [p.category, p.status, p.target_type, p.sender, p.regex]),
    action.tests.map((t) => [t.message, t.channel, t.sender, t.expect]),
  ]);
}

async function analyzeAction(action: DesiredAction, subjects: Subject[], engine: Engine): Promise<KeptFinding[]> {
  const out: KeptFinding[] = [];
  const live: Analysed[] = [];
  const dead = new Set<Subject>();
  for (const s of subjects) {
    if (!s.automaton.ok) {
      out.push(new KeptFinding('outside', s, null, s.automaton.reason, s.parser.loc));
    } else if (s.automaton.nfa.isEmpty) {
      dead.add(s);
      out.push(new KeptFinding('dead', s, null, null, s.parser.loc));
    } else live.push(s as Analysed);
  }
  for (let i = 0; i < live.length; i++) {
    for (let j = i + 1; j < live.length; j++) {
      const a = live[i]!;
      const b = live[j]!;
      if (!sameAudience(a.parser, b.parser)) continue;
      const fixtures = action.tests.filter((t) => t.channel === a.parser.target_type && (t.channel !== 'sms' || t.sender === a.parser.sender)).map((t) => t.message);
      out.push(...await comparePair(a, b, { engine, fixtures }));
    }
  }
  out.push(...await fixtureOverlaps(action, subjects, engine));
  out.push(...uncovered(action, subjects, dead));
  return out;
}
