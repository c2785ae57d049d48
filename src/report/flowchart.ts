// An action as a Mermaid flowchart (menuctl docs, and the plan's markdown): the dialled code, each
// step with the menu text it expects, then the outcomes its parsers give, ussd replies and SMS
// apart. GitHub renders ```mermaid blocks in files and in pull request comments. Pure.

import { inert } from '../text/inert.js';
import type { DesiredParser, Step } from '../model/types.js';

/** What a flowchart needs of an action: a desired action, or an action change's `desired`. */
export interface FlowAction {
  name: string;
  root_code: string;
  transport_type: string;
  steps: readonly Step[];
}

/**
 * Text safe inside a quoted Mermaid label: quotes, angle brackets and # become Mermaid's entity
 * codes (a bare # starts one), line breaks become <br/>.
 */
export function mermaidText(text: string): string {
  // Then the one rule (inert.ts) for what is left: escapes, bidi overrides, U+2028.
  return inert(text
    .replace(/#/g, '#35;')
    .replace(/"/g, '#quot;')
    .replace(/</g, '#lt;')
    .replace(/>/g, '#gt;')
    .replace(/\r\n|\r|\n/g, '<br/>'));
}

function stepLabel(step: Step, i: number): string {
  const n = `${i + 1}. `;
  const note = (s: string | undefined) => (s ? `<br/><i>${mermaidText(s)}</i>` : '');
  switch (step.kind) {
    case 'press': return `${n}press ${mermaidText(step.value)}${step.expect !== undefined ? `<br/>#8220;${mermaidText(step.expect)}#8221;` : note(step.description)}`;
    case 'variable': return `${n}enter ${mermaidText(step.name)}${note(step.description)}`;
    case 'select': return `${n}choose the option matching ${mermaidText(step.name)}${note(step.description)}`;
    case 'pin': return `${n}PIN${note(step.description)}`;
    case 'ok': return `${n}OK${note(step.description)}`;
  }
}

function start(a: FlowAction): string {
  return a.transport_type === 'ussd' ? `dial ${mermaidText(a.root_code)}` : `${mermaidText(a.transport_type)}: ${mermaidText(a.root_code)}`;
}

/**
 * The ```mermaid block of one action (fenced, ready for Markdown). `partial`: the parsers given are
 * only some of the action's (a saved plan knows only those it changes), so none is not "none".
 */
export function renderFlowchart(action: FlowAction, parsers: readonly DesiredParser[], options: { partial?: boolean } = {}): string {
  const lines = ['flowchart TD', `  start(["${start(action)}"])`];
  let prev = 'start';
  action.steps.forEach((step, i) => {
    const id = `s${i + 1}`;
    lines.push(`  ${id}["${stepLabel(step, i)}"]`, `  ${prev} --> ${id}`);
    prev = id;
  });
  const ussd = parsers.map((p, i) => ({ p, i })).filter((x) => x.p.target_type === 'ussd');
  const sms = parsers.map((p, i) => ({ p, i })).filter((x) => x.p.target_type === 'sms');
  lines.push(`  reply{{"${options.partial ? 'reply<br/><i>parsers this plan changes</i>' : 'reply'}"}}`, `  ${prev} --> reply`);
  for (const { p, i } of ussd) lines.push(`  p${i}["${outcome(p)}"]:::${p.status}`, `  reply --> p${i}`);
  if (ussd.length === 0 && !options.partial) lines.push('  noparser["no ussd parser"]', '  reply --> noparser');
  for (const { p, i } of sms) lines.push(`  p${i}["${outcome(p)}"]:::${p.status}`, `  reply -. "sms from ${mermaidText(p.sender ?? '?')}" .-> p${i}`);
  lines.push(
    '  classDef succeeded fill:#d4f7dc,stroke:#1a7f37',
    '  classDef failed fill:#ffe0e0,stroke:#cf222e',
    '  classDef pending fill:#fff4c2,stroke:#9a6700',
  );
  return ['```mermaid', ...lines, '```'].join('\n');
}

function outcome(p: DesiredParser): string {
  return `${mermaidText(p.category)}<br/>${p.status}`;
}
