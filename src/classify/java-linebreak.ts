// \R under a quantifier. Java's LineEnding prefers "\r\n" and gives back the "\n" only when the
// node after it fails; but inside a repetition the node after it is the end of the iteration,
// which always succeeds, so a repeated \R never gives back the "\n" (checked against the JVM):
// `\R+\n`, `\R{2}`, `\R?\n`, `(?:\R){2}` do not match one "\r\n". The rule follows how Pattern
// builds the repetition:
// - `\R` + any quantifier: a Curly/Ques over the bare node, each iteration atomic.
// - `(?:\R)` / `(\R)` + `*`, `+`, `{n,m}`: Java calls the group "deterministic" (TreeInfo) and
//   builds a GroupCurly, which never re-enters an iteration: again atomic. With `?` (or `{0,1}`)
//   it builds a Branch instead, which backtracks normally.
// - any other group body holding \R: a GroupCurly (never re-entered) when Java's study calls the
//   body deterministic, else a Loop (backtracks like JavaScript). A GroupCurly body with \R
//   somewhere inside is not reproduced: reported, never guessed.
import type { Node, Unfaithful } from './java-ast.js';

type Quant = Node & { type: 'quant' };

/** Java's Ques (`?`, `??`, `?+`, and `{0,1}`, which behaves the same: checked on the JVM). */
const isQues = (q: Quant) => q.min === 0 && q.max === 1;

const isPlainGroup = (n: Node): n is Node & { type: 'group' } => n.type === 'group' && (n.kind === 'capture' || n.kind === 'noncapture');

/** The quantifier repeats \R so that each iteration takes "\r\n" whole (see above). */
export function atomicLinebreakBody(q: Quant): 'bare' | 'group' | null {
  if (q.body.type === 'linebreak') return 'bare';
  if (isPlainGroup(q.body) && q.body.body.type === 'linebreak' && !isQues(q)) return 'group';
  return null;
}

/** TreeInfo.deterministic after Pattern's study(): no alternation, no `?`, no range repetition. */
export function deterministic(node: Node): boolean {
  switch (node.type) {
    case 'alt': return false;
    case 'seq': return node.items.every(deterministic);
    // Look-around bodies are not studied by Java (Pos/Neg/Behind keep Node.study).
    case 'group': return node.kind === 'capture' || node.kind === 'noncapture' || node.kind === 'atomic' ? deterministic(node.body) : true;
    case 'quant': return !isQues(node) && node.min === node.max && deterministic(node.body);
    default: return true;
  }
}

/** \R somewhere in the node, outside look-arounds (which Java runs with their own ending). */
function holdsLinebreak(node: Node): boolean {
  switch (node.type) {
    case 'linebreak': return true;
    case 'seq': return node.items.some(holdsLinebreak);
    case 'alt': return node.alts.some(holdsLinebreak);
    case 'group': return node.kind === 'capture' || node.kind === 'noncapture' || node.kind === 'atomic' ? holdsLinebreak(node.body) : false;
    case 'quant': return holdsLinebreak(node.body);
    default: return false;
  }
}

/** Repetitions where Java runs an iteration holding \R once and never re-enters it. */
export function linebreakFindings(root: Node): Unfaithful[] {
  const out: Unfaithful[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'quant' && atomicLinebreakBody(node) === null && holdsLinebreak(node.body)) {
      const body = node.body;
      const groupCurly = isPlainGroup(body) && !isQues(node) && deterministic(body.body);
      if (groupCurly || node.mode === 'possessive') {
        out.push({
          code: 'regex.linebreak-repeat',
          message: 'a repeated group holding \\R: Java runs each iteration once and never retries it with \\R taking a lone "\\r", JavaScript does; write (?:\\r\\n|[\\n\\r]) for \\R, or repeat \\R alone',
          index: node.at,
        });
      }
    }
    switch (node.type) {
      case 'seq': stack.push(...node.items); break;
      case 'alt': stack.push(...node.alts); break;
      case 'group': case 'quant': stack.push(node.body); break;
      default: break;
    }
  }
  return out;
}
