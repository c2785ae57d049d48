// menuctl analyze: per parser, an automaton of the whole messages it matches on the device; per
// action, every pair of parsers that see the same messages compared (see docs/analyze.md).
import { createHash } from 'node:crypto';
import { originOf } from '../config/origin.js';
import { resolveLocations, settledLocation, type ConfigSource } from '../config/source.js';
import type { DesiredAction, DesiredState } from '../model/types.js';
import { Engine } from './engine.js';
import { fixtureOverlaps, uncovered } from './fixtures.js';
import { comparePair, type Analysed } from './pairs.js';
import { automataCache, sameAudience, subjectsOf, type Subject } from './subjects.js';
import { FINDING_KINDS, SEVERITY, type AnalysisResult, type Finding } from './types.js';

/**
 * `states`: one per environment for a config that defines them (each may leave parsers out, or
 * give a pattern another value): an action that reads the same in several is analysed once, and
 * a finding they share is reported once.
 */
export async function analyze(states: DesiredState | readonly DesiredState[]): Promise<AnalysisResult> {
  const engine = new Engine();
  const found: Finding[] = [];
  const automata = automataCache();
  const summary = { parsers: 0, analysed: 0 };
  const seen = new Set<string>();
  let lastSource: ConfigSource | undefined;
  try {
    for (const state of Array.isArray(states) ? states : [states]) {
      for (const action of state.actions) {
        // Hashed: the keys of 100,000 actions would hold ~60 MB of JSON to the end.
        const variant = createHash('sha256').update(variantKey(action)).digest('base64');
        if (seen.has(variant)) continue;
        seen.add(variant);
        const subjects = subjectsOf(action, automata);
        summary.parsers += subjects.length;
        summary.analysed += subjects.filter((s) => s.automaton.ok).length;
        for (const f of await analyzeAction(action, subjects, engine)) {
          // Worked out now where that is cheap (a big file, an item at a time): kept lazy, 400,000
          // locations held their state and path to the end.
          if (f.location) f.location = settledLocation(f.location);
          found.push(f);
        }
        // Actions come a file at a time: a file left behind gives back its (inflated) text.
        const src = originOf(action)?.src;
        if (src !== lastSource) lastSource?.releasePositions();
        lastSource = src;
      }
    }
  } finally {
    await engine.close();
  }
  // Locations are worked out together, a file at a time (each file's positioned Document is then
  // dropped), before the keys below read them: reading them as found kept every file's Document.
  resolveLocations(found.map((f) => f.location));
  // Keyed by a hash: the keys as JSON were ~100 MB for 400,000 findings.
  const findings = new Map<string, Finding>();
  for (const f of found) {
    const key = createHash('sha256').update(JSON.stringify([f.kind, f.parsers, f.message, f.location])).digest('base64');
    if (!findings.has(key)) findings.set(key, f);
  }
  return { findings: sortFindings([...findings.values()]), summary };
}

/** What the analysis of one action reads: its parsers and its fixtures. */
function variantKey(action: DesiredAction): string {
  return JSON.stringify([
    action.name,
    action.parsers.map((p) => [p.category, p.status, p.target_type, p.sender, p.regex]),
    action.tests.map((t) => [t.message, t.channel, t.sender, t.expect]),
  ]);
}

async function analyzeAction(action: DesiredAction, subjects: Subject[], engine: Engine): Promise<Finding[]> {
  const out: Finding[] = [];
  const live: Analysed[] = [];
  const dead = new Set<Subject>();
  for (const s of subjects) {
    if (!s.automaton.ok) {
      out.push({
        kind: 'not-analysed', severity: SEVERITY['not-analysed'], parsers: [s.address], witness: null, location: s.parser.loc ?? null,
        message: `${JSON.stringify(s.parser.category)} is outside what the analysis decides: ${s.automaton.reason}`,
      });
    } else if (s.automaton.nfa.isEmpty) {
      dead.add(s);
      out.push({
        kind: 'dead', severity: SEVERITY.dead, parsers: [s.address], witness: null, location: s.parser.loc ?? null,
        message: `no message can ever match ${JSON.stringify(s.parser.category)} on the device (e.g. \\b between two word characters, or anchors in the middle); fix the pattern or remove the parser`,
      });
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

/** Errors first, then by kind, then by place: stable output for golden files and CI logs. */
function sortFindings(list: Finding[]): Finding[] {
  const rank = { error: 0, warning: 1, info: 2 };
  const loc = (f: Finding) => `${f.location?.file ?? ''}\u0000${String(f.location?.line ?? 0).padStart(9, '0')}\u0000${String(f.location?.col ?? 0).padStart(9, '0')}`;
  // Each key built once, not twice per comparison.
  return list.map((f, i) => ({ f, i, loc: loc(f) })).sort((x, y) =>
    rank[x.f.severity] - rank[y.f.severity]
    || FINDING_KINDS.indexOf(x.f.kind) - FINDING_KINDS.indexOf(y.f.kind)
    || (x.loc < y.loc ? -1 : x.loc > y.loc ? 1 : x.i - y.i)).map((x) => x.f);
}
