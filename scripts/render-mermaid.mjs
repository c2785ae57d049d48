// Renders the Mermaid flowcharts of a `menuctl docs` page in headless Chromium, to check that
// Mermaid accepts every chart (a syntax error fails the script) and to take a screenshot.
// A maintainer's tool, not shipped: needs Debian's `chromium` and the `mermaid` dev dependency.
//   node scripts/render-mermaid.mjs PAGE.md OUT.png [CHROMIUM]   (HEIGHT=900: screenshot height in px)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [page, out, chromium = 'chromium'] = process.argv.slice(2);
if (!page || !out) {
  process.stderr.write('usage: node scripts/render-mermaid.mjs PAGE.md OUT.png [CHROMIUM]\n');
  process.exit(1);
}
const markdown = readFileSync(page, 'utf8');
const charts = [...markdown.matchAll(/^```mermaid\n([\s\S]*?)\n```$/gm)].map((m) => m[1]);
const headings = [...markdown.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
if (charts.length === 0) {
  process.stderr.write(`${page}: no mermaid blocks\n`);
  process.exit(1);
}
const mermaidJs = readFileSync(createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js'), 'utf8');
const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const html = `<!doctype html><html><head><meta charset="utf-8"><title>rendering</title>
<style>body{font-family:sans-serif;margin:16px;width:1160px} h2{font-size:16px;margin:12px 0 4px} .chart{display:inline-block;vertical-align:top;margin-right:24px}</style>
<script>${mermaidJs}</script></head><body>
${charts.map((c, i) => `<div class="chart"><h2>${escape(headings[i] ?? '')}</h2><pre class="mermaid">${escape(c)}</pre></div>`).join('\n')}
<script>
mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
mermaid.run({ querySelector: '.mermaid' })
  .then(() => { document.title = document.querySelectorAll('pre.mermaid svg').length + ' rendered'; })
  .catch((e) => { document.title = 'error: ' + (e && e.message || e); });
</script></body></html>`;
const dir = mkdtempSync(join(tmpdir(), 'menuctl-mermaid-'));
try {
  const file = join(dir, 'page.html');
  writeFileSync(file, html);
  const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--virtual-time-budget=15000'];
  const dom = execFileSync(chromium, [...flags, '--dump-dom', `file://${file}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 });
  const title = /<title>(.*?)<\/title>/.exec(dom)?.[1] ?? '(no title)';
  if (title !== `${charts.length} rendered`) {
    process.stderr.write(`${page}: Mermaid did not render every chart: ${title}\n`);
    process.exit(1);
  }
  execFileSync(chromium, [...flags, `--window-size=1200,${process.env.HEIGHT ?? 900}`, `--screenshot=${resolve(out)}`, `file://${file}`], { stdio: 'ignore' });
  process.stdout.write(`${page}: ${charts.length} chart(s) rendered; screenshot in ${out}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
