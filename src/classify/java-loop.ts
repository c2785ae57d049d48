// A repeated group whose body can match the empty string. Java builds `(?:X)*`, `(?:X)+`,
// `(?:X){n,m}` (greedy or lazy) over a body with a choice in it as a Loop, and a Loop ends the
// repetition at the first iteration that matched nothing, even below the minimum; JavaScript
// instead refuses an empty iteration past the minimum (and tries the body's other ways first) and
// allows one below it. So `(?:(?=a)|a){2}` does not match "a" in Java, and in `(?:|a)*(?<g>a*)`
// Java leaves "aa" to g. The two agree when every way for the body to match empty comes after
// all its non-empty ways and the minimum is at most 1; anything else is reported, not guessed.
// (A body without a choice is a GroupCurly, whose empty iterations JavaScript reproduces; a
// possessive repetition is emitted iteration by iteration, as Java runs it.)
import type { Node, Unfaithful } from './java-ast.js';
import { nullable } from './backtracking.js';
import { deterministic } from './java-linebreak.js';

export function loopFindings(root: Node): Unfaithful[] {
  const out: Unfaithful[] = [];
  const walk = (node: Node): void => {
    switch (node.type) {
      case 'seq': node.items.forEach(walk); return;
      case 'alt': node.alts.forEach(walk); return;
      case 'group': walk(node.body); return;
      case 'quant': {
        const b = node.body;
        const loop = node.max > 1 && node.mode !== 'possessive' && b.type === 'group'
          && (b.kind === 'capture' || b.kind === 'noncapture') && !deterministic(b.body);
        if (loop && nullable(b.body) && !(node.min <= 1 && emptyLast(b.body))) {
          out.push({
            code: 'regex.empty-iteration',
            message: 'a repeated group that can match the empty string: Java ends the repetition at the first empty iteration (even below the minimum), JavaScript does not; make the group match at least one character',
            index: node.at,
          });
        }
        walk(b);
        return;
      }
      default: return;
    }
  };
  walk(root);
  return out;
}

/** Every way for the node to match empty is tried after all its non-empty ways (conservative). */
function emptyLast(node: Node): boolean {
  if (!nullable(node)) return true;
  switch (node.type) {
    case 'seq': return node.items.every(emptyLast);
    case 'alt': return node.alts.slice(0, -1).every((a) => !nullable(a)) && emptyLast(node.alts[node.alts.length - 1]!);
    // Look-arounds and atomic groups have one way to match.
    case 'group': return node.kind === 'capture' || node.kind === 'noncapture' ? emptyLast(node.body) : true;
    // Greedy: zero iterations are tried last. Lazy: first. Possessive: one way.
    case 'quant': return node.mode === 'possessive' || (node.mode === 'greedy' && !nullable(node.body));
    default: return true;
  }
}
