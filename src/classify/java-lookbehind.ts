// Java requires a look-behind to have "an obvious maximum length" (Pattern.TreeInfo), computed
// with rules that are narrower than they look: any repeated group that is not of fixed length
// (`(?:a|b){2}`, `(?:ab)*`) or a back reference is rejected, while a repeated single character
// (`a*`) is accepted with a length near Integer.MAX_VALUE whose arithmetic overflows — Java then
// gives wrong answers (`(?<=xa*)y` does not match "xaay"), so we report those as unfaithful.
import { hasCapture, type Node } from './java-ast.js';

interface Info { min: number; max: number; valid: boolean; deterministic: boolean }

const INT_MAX = 0x7fffffff;

function study(node: Node): Info {
  switch (node.type) {
    case 'empty': case 'assert': return { min: 0, max: 0, valid: true, deterministic: true };
    case 'set': return { min: 1, max: 1, valid: true, deterministic: true };
    case 'linebreak': return { min: 1, max: 2, valid: true, deterministic: false };
    case 'backref': return { min: 0, max: 0, valid: false, deterministic: false };
    case 'seq': {
      const parts = node.items.map(study);
      return {
        min: parts.reduce((a, b) => a + b.min, 0),
        max: parts.reduce((a, b) => a + b.max, 0),
        valid: parts.every((x) => x.valid),
        deterministic: parts.every((x) => x.deterministic),
      };
    }
    case 'alt': {
      const parts = node.alts.map(study);
      return {
        min: Math.min(...parts.map((x) => x.min)),
        max: Math.max(...parts.map((x) => x.max)),
        valid: parts.every((x) => x.valid),
        deterministic: false,
      };
    }
    case 'group':
      if (node.kind === 'capture' || node.kind === 'noncapture' || node.kind === 'atomic') return study(node.body);
      return { min: 0, max: 0, valid: true, deterministic: true };
    case 'quant': {
      const body = study(node.body);
      if (node.body.type === 'set') {
        return { min: node.min, max: node.max === Infinity ? Infinity : node.max, valid: true, deterministic: node.min === node.max };
      }
      if (node.min === 0 && node.max === 1) return { min: 0, max: body.max, valid: body.valid, deterministic: false };
      const max = body.max * node.max;
      const valid = body.valid && body.deterministic && node.max !== Infinity && max < INT_MAX;
      return { min: body.min * node.min, max, valid, deterministic: body.deterministic && node.min === node.max };
    }
  }
}

export interface LookbehindHost {
  error(description: string, k?: number): never;
  warn(code: string, message: string, k?: number): void;
}

export function checkLookbehind(node: Node & { type: 'group' }, host: LookbehindHost, k: number): void {
  const info = study(node.body);
  if (!info.valid) host.error('Look-behind group does not have an obvious maximum length', k);
  if (info.max === Infinity || info.max >= INT_MAX) {
    host.warn('regex.unbounded-lookbehind', 'an unbounded look-behind (e.g. (?<=a*)) is computed with an overflowing length in Java and may not match as written; bound it, e.g. a{0,50}', k);
  }
  if (hasCapture(node.body)) {
    host.warn('regex.lookbehind-capture', 'capturing groups inside a look-behind are filled differently by Java and JavaScript', k);
  }
}
