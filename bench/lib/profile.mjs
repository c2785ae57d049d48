// Summarises a V8 .cpuprofile (node --cpu-prof): self time per function, top N. Enough to see
// where a CLI run spends its CPU without opening DevTools.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './paths.mjs';

export function topFrames(dir, n = 15) {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile in ${dir}`);
  const prof = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const byNode = new Map(prof.nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  // samples[i] ran for timeDeltas[i + 1]; attribute each delta to its sampled node.
  for (let i = 0; i < prof.samples.length; i++) {
    const dt = prof.timeDeltas[i + 1] ?? 0;
    selfUs.set(prof.samples[i], (selfUs.get(prof.samples[i]) ?? 0) + dt);
  }
  const byFrame = new Map();
  let total = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byNode.get(id).callFrame;
    const where = url ? `${relative(ROOT, url.replace(/^file:\/\//, ''))}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    byFrame.set(key, (byFrame.get(key) ?? 0) + us);
    total += us;
  }
  const rank = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n)
    .map(([frame, us]) => ({ frame, ms: us / 1000, share: us / total }));
  return { totalMs: total / 1000, top: rank(byFrame), byModule: rank(byModule(prof, selfUs)), inclusive: inclusive(prof, selfUs) };
}

/** Self time per module: a package under node_modules, a directory of dist/, node internals, or a VM state. */
function byModule(prof, selfUs) {
  const out = new Map();
  const byNode = new Map(prof.nodes.map((node) => [node.id, node]));
  for (const [id, us] of selfUs) {
    const { functionName, url } = byNode.get(id).callFrame;
    let key;
    if (!url) key = functionName.startsWith('(') ? functionName : '(native/V8)';
    else if (url.startsWith('node:')) key = 'node internals';
    else {
      const path = relative(ROOT, url.replace(/^file:\/\//, ''));
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
      key = pkg ? `node_modules/${pkg[1]}` : path.split('/').slice(0, 2).join('/');
    }
    out.set(key, (out.get(key) ?? 0) + us);
  }
  return out;
}

/** Inclusive (self + callees) time of the project's own functions, counted once per stack. */
function inclusive(prof, selfUs) {
  const byNode = new Map(prof.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of prof.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const total = new Map();
  for (const [id, us] of selfUs) {
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const { functionName, url, lineNumber } = byNode.get(cur).callFrame;
      if (!url.includes('/dist/') || !functionName) continue;
      const key = `${functionName} ${relative(ROOT, url.replace(/^file:\/\//, ''))}:${lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + us);
    }
  }
  return [...total].sort((a, b) => b[1] - a[1]).map(([frame, us]) => ({ frame, ms: us / 1000 }));
}

/** The phases of a plan or apply run, by function name (inclusive CPU, synchronous parts). */
export const PHASES = [
  'loadConfig', 'parseFile', 'evaluate', 'validateSchema', 'checkRegex', 'readLiveState', 'send', 'parseBody', 'shapeProblem',
  'validator', 'fromApiParser', 'buildPlan', 'renderPlanText', 'applyPlan', 'executePlan', 'runLevel',
];

/** Writes the views of a profile to stderr, `n` lines each. */
export function printProfile(prof, label, note, n = 12) {
  const pct = (ms) => `${((ms / prof.totalMs) * 100).toFixed(1).padStart(5)}%`;
  note(`profile (${label}): ${(prof.totalMs / 1000).toFixed(2)} s sampled`);
  note('  self time by module:');
  for (const f of prof.byModule.slice(0, n)) note(`    ${f.ms.toFixed(0).padStart(6)} ms ${pct(f.ms)}  ${f.frame}`);
  note('  phases (inclusive, synchronous CPU):');
  for (const f of prof.inclusive.filter((x) => PHASES.includes(x.frame.split(' ')[0]))) note(`    ${f.ms.toFixed(0).padStart(6)} ms ${pct(f.ms)}  ${f.frame}`);
  note("  inclusive time of menuctl's functions:");
  for (const f of prof.inclusive.slice(0, n)) note(`    ${f.ms.toFixed(0).padStart(6)} ms ${pct(f.ms)}  ${f.frame}`);
  note('  self time by function:');
  for (const f of prof.top.slice(0, n)) note(`    ${f.ms.toFixed(0).padStart(6)} ms ${pct(f.ms)}  ${f.frame}`);
}

const TIMELINE_PHASES = [
  ['config', /^(loadConfig|loadDesired)$/],
  ['plan', /^(buildPlan|buildDriftResult)$/],
  ['render', /^render/],
  ['api', /^(send|once|parseBody|shapeProblem|readLiveState|listParsers)$/],
  ['apply', /^(applyPlan|runOne|executeChange)$/],
];

/**
 * What the process did over time: for each `bucketMs` slice, milliseconds per phase
 * (config, api, plan, render, apply, gc, idle, other). Wall-clock view, unlike the CPU views.
 */
export function timeline(dir, bucketMs = 250) {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  const prof = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const byNode = new Map(prof.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of prof.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const phaseOf = new Map();
  const classify = (id) => {
    if (phaseOf.has(id)) return phaseOf.get(id);
    const name = byNode.get(id).callFrame.functionName;
    let phase = name === '(idle)' ? 'idle' : name === '(garbage collector)' ? 'gc' : 'other';
    for (let cur = id; cur !== undefined && phase === 'other'; cur = parent.get(cur)) {
      const fn = byNode.get(cur).callFrame.functionName;
      const hit = TIMELINE_PHASES.find(([, re]) => re.test(fn));
      if (hit) phase = hit[0];
    }
    phaseOf.set(id, phase);
    return phase;
  };
  const buckets = [];
  let t = 0;
  for (let i = 0; i < prof.samples.length; i++) {
    const dt = (prof.timeDeltas[i + 1] ?? 0) / 1000;
    const b = Math.floor(t / bucketMs);
    buckets[b] ??= {};
    const phase = classify(prof.samples[i]);
    buckets[b][phase] = (buckets[b][phase] ?? 0) + dt;
    t += dt;
  }
  return buckets.map((b, i) => ({ fromMs: i * bucketMs, ...Object.fromEntries(Object.entries(b ?? {}).map(([k, v]) => [k, Math.round(v)])) }));
}

/** One line per 500 ms of the run: where the wall time went (see timeline()). */
export function printTimeline(dir, note, bucketMs = 500) {
  note(`  timeline (${bucketMs} ms slices; config, api, plan, render, apply, gc, idle, other in ms):`);
  for (const { fromMs, ...phases } of timeline(dir, bucketMs)) {
    const parts = Object.entries(phases).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`);
    note(`    ${String(fromMs / 1000).padStart(5)} s  ${parts.join(', ')}`);
  }
}
