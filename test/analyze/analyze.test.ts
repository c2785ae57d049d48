// menuctl analyze end to end (the CLI in-process, on config files), with every witness checked by
// real Java 17: the "done when" config, then one config with each other kind of finding.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { JavaOracle, javaUnavailable } from '../classify/java-oracle.js';
import { loadConfig } from '../../src/config/load.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const address = (action: string, category: string) => `action[${JSON.stringify(action)}].parser[${JSON.stringify(category)}]`;

interface Finding { kind: string; severity: string; parsers: string[]; witness: string | null; message: string; location: { file: string; line: number; col: number } | null }
interface Report { format_version: number; findings: Finding[]; summary: { parsers: number; analysed: number } }

async function analyzeJson(file: string, extra: string[] = []): Promise<{ code: number; report: Report }> {
  const r = await runCli(['analyze', file, '--format', 'json', ...extra]);
  return { code: r.code, report: JSON.parse(r.stdout) as Report };
}

async function regexOf(file: string, action: string, category: string): Promise<string> {
  const loaded = await loadConfig([file], { env: {}, cwd: process.cwd() });
  return loaded.state!.actions.find((a) => a.name === action)!.parsers.find((p) => p.category === category)!.regex;
}

describe('menuctl analyze', () => {
  let oracle: JavaOracle;
  beforeAll(() => {
    const why = javaUnavailable();
    if (why) throw new Error(why);
    oracle = JavaOracle.compile();
  });
  afterAll(() => oracle?.dispose());

  it('done when: reports exactly the overlap (witness real Java matches with both) and the dead parser, exits 1', async () => {
    const file = fixture('done-when.yaml');
    const { code, report } = await analyzeJson(file);
    expect(code).toBe(1);
    // Disjoint only by channel/sender (wrong-pin vs wrong-pin-airtel, and vs the ussd parsers) or by
    // ASCII-only case folding (frozen `gelé` vs unfrozen `GELÉ`): nothing claimed about them.
    expect(report.findings.map((f) => [f.kind, f.severity, f.parsers])).toEqual([
      ['dead', 'error', [address('Check balance', 'currency')]],
      ['overlap', 'warning', [address('Check balance', 'balance'), address('Check balance', 'low-balance')]],
    ]);
    const overlap = report.findings[1]!;
    expect(overlap.witness).toBe('Your balance is 0.00 KES');
    const patterns = [await regexOf(file, 'Check balance', 'balance'), await regexOf(file, 'Check balance', 'low-balance')];
    const java = oracle.run(patterns.map((pattern) => ({ pattern, message: overlap.witness! })));
    expect(java.map((j) => j.kind === 'ok' && j.matches)).toEqual([true, true]);
    expect(report.findings[0]!.location).toEqual({ file: expect.stringContaining('done-when.yaml'), line: 16, col: 9 });
    expect(report.summary).toEqual({ parsers: 8, analysed: 8 });
    expect(report.format_version).toBe(1);
  });

  it('the É/é pair really is disjoint in Java, and the same-pattern sms parsers differ only by sender', async () => {
    const file = fixture('done-when.yaml');
    const [frozen, unfrozen] = [await regexOf(file, 'Check balance', 'frozen'), await regexOf(file, 'Check balance', 'unfrozen')];
    const java = oracle.run(['Compte gelé', 'Compte GELÉ', 'compte gelÉ'].flatMap((m) => [frozen, unfrozen].map((pattern) => ({ pattern, message: m }))));
    const both = [0, 2, 4].filter((i) => [java[i], java[i + 1]].every((j) => j!.kind === 'ok' && j!.matches));
    expect(both).toEqual([]);
    expect(await regexOf(file, 'Check balance', 'wrong-pin')).toBe(await regexOf(file, 'Check balance', 'wrong-pin-airtel'));
  });

  it('text output: source line and caret per finding, witness, summary; --strict fails on warnings', async () => {
    const file = fixture('done-when.yaml');
    const r = await runCli(['analyze', file]);
    expect(r.stdout).toContain('done-when.yaml:16:9: error[analyze.dead] action["Check balance"].parser["currency"]: no message can ever match');
    expect(r.stdout).toContain(' 16 |       - category: currency\n    |         ^');
    expect(r.stdout).toContain('  witness: "Your balance is 0.00 KES"');
    expect(r.stdout).toMatch(/8 parsers, 8 analysed: 1 error, 1 warning, 0 notes\n$/);
    const gh = await runCli(['analyze', file, '--format', 'github']);
    expect(gh.stdout).toMatch(/^::error file=.*done-when\.yaml,line=16,col=9,title=menuctl analyze\.dead::action\["Check balance"\]/m);
    expect(gh.stdout).toMatch(/^::warning .*title=menuctl analyze\.overlap::.*\(witness: "Your balance is 0\.00 KES"\)$/m);
  });

  it('each other kind: shadowed, fixture-overlap, uncovered, not-analysed (parser and pair), with Java-checked witnesses', async () => {
    const file = fixture('kinds.yaml');
    const { code, report } = await analyzeJson(file);
    const a = (c: string) => address('Airtime', c);
    const kinds = report.findings.map((f) => [f.kind, f.parsers]);
    expect(kinds).toEqual([
      ['shadowed', [a('low-funds'), a('failed-any')]],
      ['fixture-overlap', [a('low-funds'), a('failed-any')]],
      // echo has a back-reference: its automaton over-approximates, and `menuctl test` cannot run it
      // faithfully, so an overlap with it can be neither confirmed nor ruled out. With low-funds and
      // bought it is ruled out (disjoint even over-approximated): nothing said.
      ['not-analysed', [a('failed-any'), a('echo')]],
      ['not-analysed', [a('grapheme')]],
      ['uncovered', [a('failed-any')]],
      ['uncovered', [a('grapheme')]],
    ]);
    // Only warnings and notes: exit 0 without --strict, 1 with it.
    expect(code).toBe(0);
    expect((await analyzeJson(file, ['--strict'])).code).toBe(1);
    const shadowed = report.findings[0]!;
    expect(shadowed.message).toContain('"low-funds" (failed) matches only messages that "failed-any" (failed) also matches');
    const witnessed = report.findings.filter((f) => f.witness !== null);
    for (const f of witnessed) {
      const categories = f.parsers.map((p) => /parser\["(.*)"\]$/.exec(p)![1]!);
      const patterns = await Promise.all(categories.map((c) => regexOf(file, 'Airtime', c)));
      const java = oracle.run(patterns.map((pattern) => ({ pattern, message: f.witness! })));
      expect(java.every((j) => j.kind === 'ok' && j.matches), `${f.kind} witness ${f.witness}`).toBe(true);
    }
    expect(report.findings.find((f) => f.parsers.length === 1 && f.kind === 'not-analysed')!.message).toContain('\\X');
    expect(report.findings.find((f) => f.parsers.includes(a('echo')))!.message).toContain('back');
  });

  it('an invalid config is reported like validate does and nothing is analysed', async () => {
    const r = await runCli(['analyze', fixture('does-not-exist.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('nothing analysed');
    expect(r.stdout).toBe('');
  });
});

describe('menuctl validate points at analyze', () => {
  it('adds one line when a parser is dead, and nothing when none is', async () => {
    const withDead = await runCli(['validate', fixture('done-when.yaml')]);
    expect(withDead.code).toBe(0);
    expect(withDead.stdout.trimEnd().split('\n').pop()).toBe('note: 1 parser can never match a message; run `menuctl analyze` to see which and why');
    const clean = await runCli(['validate', fixture('kinds.yaml')]);
    expect(clean.stdout).not.toContain('menuctl analyze');
    const json = await runCli(['validate', fixture('done-when.yaml'), '--format', 'json']);
    expect(json.stdout).not.toContain('menuctl analyze');
  });
});

describe('menuctl analyze on sms parsers', () => {
  it('reports an overlap between two parsers of the same sender, and none across channels', async () => {
    const file = fixture('sms.yaml');
    const { code, report } = await analyzeJson(file);
    expect(code).toBe(0);
    expect(report.findings.map((f) => [f.kind, f.parsers])).toEqual([
      ['overlap', [address('Send money', 'sent'), address('Send money', 'reversed')]],
    ]);
    const witness = report.findings[0]!.witness!;
    const why = javaUnavailable();
    if (why) throw new Error(why);
    const oracle = JavaOracle.compile();
    try {
      const patterns = [await regexOf(file, 'Send money', 'sent'), await regexOf(file, 'Send money', 'reversed')];
      const java = oracle.run(patterns.map((pattern) => ({ pattern, message: witness })));
      expect(java.map((j) => j.kind === 'ok' && j.matches), witness).toEqual([true, true]);
    } finally {
      oracle.dispose();
    }
  });
});

describe('the fix analyze suggests', () => {
  it('a leading negative look-ahead makes two parsers exclusive, and analyze proves it', async () => {
    const before = await runCli(['analyze', fixture('done-when.yaml'), '--format', 'json']);
    expect(before.stdout).toContain('negative look-ahead');
    const { code, report } = await analyzeJson(fixture('exclusive.yaml'));
    expect(code).toBe(0);
    expect(report.findings).toEqual([]);
    expect(report.summary).toEqual({ parsers: 2, analysed: 2 });
  });
});

describe('menuctl analyze on a config with environments', () => {
  it('analyses every environment: a parser only production has is compared too; a finding both share is reported once', async () => {
    const { code, report } = await analyzeJson(fixture('environments.yaml'));
    expect(code).toBe(1);
    const kinds = report.findings.map((f) => `${f.kind} ${f.parsers.join(' ')}`);
    // The production-only parser overlaps (or shadows) balance: found although staging comes first.
    expect(kinds.some((k) => k.includes(address('Check balance', 'any-balance')) && k.includes(address('Check balance', 'balance')))).toBe(true);
    // The dead parser is in both environments: one finding.
    expect(kinds.filter((k) => k === `dead ${address('Check balance', 'never')}`)).toHaveLength(1);
  });
});

describe('menuctl analyze on replies the test engine refuses', () => {
  it('prints no witness that menuctl test would not judge (and real Java does not match)', async () => {
    const file = fixture('reply-obstacles.yaml');
    const { report } = await analyzeJson(file);
    const o = (c: string) => address('Obstacles', c);
    // Before: shadowed with witness "\u0870 ", overlap with "zx😀y", and two fixture-overlaps, all
    // refuted by Java. Nothing is claimed about these pairs now.
    expect(report.findings.filter((f) => f.witness !== null)).toEqual([]);
    expect(report.findings.filter((f) => f.kind === 'not-analysed').map((f) => f.parsers)).toEqual([
      [o('boundary'), o('anything')],
      [o('behind'), o('emoji')],
      [address('Atomic', 'possessive'), address('Atomic', 'accent')],
    ]);
    const why = javaUnavailable();
    if (why) throw new Error(why);
    const oracle = JavaOracle.compile();
    try {
      const java = oracle.run([
        { pattern: await regexOf(file, 'Obstacles', 'boundary'), message: '\u0870 ' },
        { pattern: await regexOf(file, 'Obstacles', 'boundary'), message: '\u0870 ok' },
        { pattern: await regexOf(file, 'Obstacles', 'behind'), message: 'zx\u{1F600}y' },
        { pattern: await regexOf(file, 'Atomic', 'possessive'), message: '\u00e9' },
      ]);
      expect(java.map((j) => j.kind === 'ok' && j.matches)).toEqual([false, false, false, false]);
    } finally {
      oracle.dispose();
    }
  });
});
