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
  const top = [...byFrame].sort((a, b) => b[1] - a[1]).slice(0, n)
    .map(([frame, us]) => ({ frame, ms: us / 1000, share: us / total }));
  return { totalMs: total / 1000, top };
}
