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
import { automataCache, sameAudience, subjectsOf, type Subject } from './subjects.js';
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
  const automata = automataCache();
  const summary = { parsers: 0, analysed: 0 };
  const recurring = new Recurring(list);
  let lastSource: ConfigSource | undefined;
  try {
    for (const state of list) {
      for (const action of state.actions) {
        const seen = recurring.next(action.name);
        if (seen?.analysed(action)) continue;
        const subjects = subjectsOf(action, automata);
        summary.parsers += subjects.length;
        summary.analysed += subjects.filter((s) => s.automaton.ok).length;
        const here = new Set<string>();
        for (const f of await analyzeAction(action, subjects, engine)) {
          const key = JSON.stringify([f.kind, f.parsers, f.message, f.location]);
          if (here.has(key) || seen?.reported(key)) continue;
          here.add(key);
          found.push(f);
        }
        // Actions come a file at a time: a file left behind gives back its (inflated) text and
        // the Document its locations were read from.
        const src = originOf(action)?.src;
        if (src !== lastSource) lastSource?.releasePositions();
        lastSource = src;
      }
    }
  } finally {
    await engine.close();
  }
  lastSource?.releasePositions();
  return { findings: found.sort(KeptFinding.compare), summary };
}

/**
 * What is remembered of an action's name while another action of that name is still to come:
 * the variants analysed (an action that reads as one analysed before is skipped) and the keys of
 * the findings reported. A finding names its action in its parsers' addresses, so only actions of
 * one name can repeat each other's findings; a name is forgotten after its last action. A config
 * without environments has one action per name, and holds nothing: remembered for every action
 * to the end, the keys of 400,000 findings and 100,000 variants were ~40 MB.
 */
class Recurring {
  /** Actions of each name not reached yet, for names with more than one. */
  private readonly left = new Map<string, number>();
  private readonly memo = new Map<string, Memo>();

  constructor(states: readonly DesiredState[]) {
    const count = new Map<string, number>();
    for (const state of states) for (const a of state.actions) count.set(a.name, (count.get(a.name) ?? 0) + 1);
    for (const [name, n] of count) if (n > 1) this.left.set(name, n);
  }

  /** The memo of the name of the action reached now (undefined: the only one of its name). */
  next(name: string): Memo | undefined {
    const left = this.left.get(name);
    if (left === undefined) return undefined;
    let memo = this.memo.get(name);
    if (!memo) this.memo.set(name, (memo = new Memo()));
    if (left > 1) this.left.set(name, left - 1);
    else {
      // The last action of this name: its memo is used once more, then forgotten.
      this.left.delete(name);
      this.memo.delete(name);
    }
    return memo;
  }
}

class Memo {
  private readonly variants = new Set<string>();
  private readonly keys = new Set<string>();

  /** Whether an action that reads as this one was analysed already (it is noted as analysed). */
  analysed(action: DesiredAction): boolean {
    // Hashed: the keys of 100,000 actions would hold ~60 MB of JSON to the end.
    const variant = createHash('sha256').update(variantKey(action)).digest('base64');
    if (this.variants.has(variant)) return true;
    this.variants.add(variant);
    return false;
  }

  /**
   * Whether a finding of this key (its kind, parsers, message and location) was reported for an
   * action of this name already (it is noted as reported). Hashed: 400,000 keys as JSON were ~100 MB.
   */
  reported(key: string): boolean {
    const hash = createHash('sha256').update(key).digest('base64');
    if (this.keys.has(hash)) return true;
    this.keys.add(hash);
    return false;
  }
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
