import { automatonOfPattern } from '/work/wt/analyze/dist/classify/automaton.js';
import { DFA, isDisjointWith, getIntersectionWordSets } from 'refa';
const ps = [
 '(?<code>[A-Z0-9]{10}) Confirmed\\.[\\s\\S]*You bought Ksh(?<amount>[\\d,]+\\.\\d{2}) of airtime[\\s\\S]*New M-PESA balance is Ksh(?<balance>[\\d,]+\\.\\d{2})\\.[\\s\\S]*',
 '.*Failed\\. Insufficient funds in your M-PESA account.*',
 '.*(wrong|incorrect|invalid) PIN.*',
];
const t = (l, f) => { const t0 = performance.now(); const r = f(); console.log(l, (performance.now() - t0).toFixed(0), 'ms'); return r; };
const A = ps.map((p) => t('build ' + p.slice(0, 20), () => automatonOfPattern(p)));
for (const a of A) console.log(a.nfa.countNodes(), a.exact);
for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) if (i !== j) {
  t(`disjoint ${i} ${j}`, () => isDisjointWith(A[i].nfa, A[j].nfa, 20000));
  t(`dfa ${j}`, () => { const d = DFA.fromFA(A[j].nfa, new DFA.LimitedNodeFactory(20000)); d.complement(); return d; });
  t(`ws ${i} ${j}`, () => { let n = 0; for (const w of getIntersectionWordSets(A[i].nfa, A[j].nfa, 20000)) if (++n >= 6) break; });
}
