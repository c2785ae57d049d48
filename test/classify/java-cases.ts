// Cases for the Java cross-check (java-crosscheck.test.ts): one list per fidelity class of issue 15,
// and a seeded generator of (regex, reply) pairs mixing every construct menuctl evaluates, so the
// JVM judges hundreds of combinations nobody wrote by hand.
import fc from 'fast-check';

/** f: we evaluate it faithfully; u: we report it unfaithful (for this reply); e: Java rejects it (and so do we). */
export type Ours = 'f' | 'u' | 'e';
export interface Case { pattern: string; message: string; ours?: Ours; why: string }

const c = (pattern: string, message: string, ours: Ours, why: string): Case => ({ pattern, message, ours, why });

export const FIDELITY: Case[] = [
  // 1. \p{...} names: Java 17's exact tables and case rules.
  c('\\p{IsEmoji}', 'x', 'e', 'Emoji is not a Java 17 property'),
  c('\\p{IsExtended_Pictographic}', 'x', 'e', 'Extended_Pictographic is not a Java 17 property'),
  c('\\p{IsVithkuqi}', 'x', 'e', 'Unicode 14 script'),
  c('\\p{InArabic_Extended-B}', 'x', 'e', 'Unicode 14 block'),
  c('\\p{javalowercase}', 'x', 'e', 'java names are case-sensitive'),
  c('\\p{InLatin}', 'x', 'e', 'Latin is a script, not a block'),
  c('\\p{IsL&}', 'x', 'e', 'L& is not a Java name'),
  c('\\p{islatin}', 'x', 'e', 'the Is prefix is case-sensitive'),
  c('\\p{inBasicLatin}', 'x', 'e', 'the In prefix is case-sensitive'),
  c('\\p{gc=lu}', 'x', 'e', 'category values are case-sensitive'),
  c('\\p{Islu}', 'x', 'e', 'Is + category is case-sensitive'),
  c('\\p{Alphabetic}', 'x', 'e', 'binary properties need Is'),
  c('\\p{lower}', 'x', 'e', 'POSIX names are case-sensitive'),
  c('\\p{sc=Vith}', 'x', 'e', 'Unicode 14 script alias'),
  c('\\p{foo=Latin}', 'x', 'e', 'unknown property key'),
  c('\\p{IsLatin}+', 'Abc\u00e9', 'f', 'script'),
  c('\\p{IsLATIN}+', 'Abc', 'f', 'script names ignore case'),
  c('\\p{IsLat\u0131n}', 'a', 'f', 'dotless i upper-cases to I, as in Java'),
  c('\\p{sc=latn}\\p{script=Arab}', 'a\u0627', 'f', 'script aliases'),
  c('\\p{InBASICLATIN}\\p{InBasic_Latin}\\p{InBasic Latin}\\p{blk=basiclatin}', 'abcd', 'f', 'block spellings'),
  c('\\p{InGreek}', '\u03b1', 'f', 'old block name Greek'),
  c('\\p{IsAlphabetic}\\p{Isalphabetic}', '\u00e9\u0905', 'f', 'binary property, any case'),
  c('\\p{Isalpha}', '\u00e9', 'f', 'IsAlpha is Unicode alphabetic, not POSIX'),
  c('\\p{Alpha}', '\u00e9', 'f', 'POSIX Alpha is ASCII'),
  c('\\p{IsPunct}', '\u00bf', 'f', 'IsPunct'),
  c('\\p{IsWhite_Space}', '\u00a0', 'f', 'White_Space includes NBSP'),
  c('\\p{Lu}', 'a', 'f', 'Lu under CASE_INSENSITIVE matches lower case too'),
  c('(?-i)\\p{Lu}', 'a', 'f', 'Lu without CASE_INSENSITIVE'),
  c('\\p{javaLowerCase}', 'A', 'f', 'javaLowerCase under CASE_INSENSITIVE'),
  c('(?-i)\\p{javaUpperCase}', 'a', 'f', 'javaUpperCase case-sensitive'),
  c('\\p{gc=Lu}', 'A', 'f', 'gc= form'),
  c('\\p{general_category=Nd}', '\u0663', 'f', 'general_category= form'),
  c('\\p{IsLu}', 'b', 'f', 'Is + category'),
  c('\\p{L}', '\u0870', 'f', 'U+0870 is unassigned in Java 17'),
  c('\\p{Cn}', '\u0870', 'f', 'U+0870 is unassigned in Java 17'),
  c('\\p{IsArabic}', '\u0870', 'f', 'U+0870 is not Arabic in Java 17'),
  c('\\p{L}+', '\u1e9e\u00df\u0131', 'f', 'letters'),
  c('\\P{L}', '1', 'f', 'complement'),
  c('[\\p{L}&&[^a-z]]+', '\u00e9\u00e8', 'f', 'property in an intersection'),
  c('[^\\p{IsLatin}]', '\u0627', 'f', 'negated property class'),
  c('[a&&[^^]b]', 'a', 'f', 'operands after && are unioned: a nested class then more'),
  c('[ab&&[b]c]', 'c', 'f', 'operands after && are unioned (c is not in the left side)'),
  c('[B&&[^a]0&&[a-c]]', 'B', 'f', 'union after && then another &&'),
  c('\\pL\\pN', 'a1', 'f', 'one-letter names'),
  c('\\p{LD}\\p{L1}\\p{all}', 'a\u00ff\u4e00', 'f', 'Java-only names LD, L1, all'),
  c('\\p{javaJavaIdentifierStart}\\p{javaMirrored}', '$(', 'f', 'java names'),
  c('\\p{IsHex_Digit}\\p{IsHexDigit}', 'fF', 'f', 'HEX_DIGIT both spellings'),
  c('\\p{IsJoin_Control}', '\u200d', 'f', 'Join_Control'),
  c('\\p{IsNoncharacter_Code_Point}', '\ufdd0', 'f', 'Noncharacter_Code_Point'),
  c('\\p{IsEmoji_Presentation}', '\u231a', 'e', 'no emoji properties in Java 17'),
  c('\\p{Sc}+', '$\u20ac\u20b9', 'f', 'currency symbols'),
  c('\\p{IsGreek}', '\u1f00', 'f', 'Greek extended letter'),
  c('[\\p{Lu}]', 'a', 'f', 'Lu inside a class under CASE_INSENSITIVE'),
  c('[^\\p{Lu}]', 'a', 'f', 'negated class of Lu under CASE_INSENSITIVE'),
  c('\\P{Lu}', 'a', 'f', 'complement of Lu under CASE_INSENSITIVE'),
  c('[\\p{javaUpperCase}x]+', 'aX', 'f', 'java name in a class'),
  c('(?-i)[\\p{Lower}&&[^b]]+', 'ac', 'f', 'POSIX Lower case-sensitive in an intersection'),
  c('\\p{IsLowercase}', 'A', 'f', 'Lowercase binary property under CASE_INSENSITIVE'),
  c('\\p{IsTitlecase}', '\u01c5', 'f', 'Titlecase binary property'),
  c('\\p{IsUppercase}', '\u00e9', 'f', 'Uppercase binary property under CASE_INSENSITIVE'),
  c('\\p{Lt}', 'a', 'f', 'Lt under CASE_INSENSITIVE'),
  c('\\p{InCJK_Unified_Ideographs}', '\u4e00', 'f', 'block with underscores'),
  c('\\p{InCJKUnifiedIdeographs}', '\u4e00', 'f', 'block without separators'),
  c('\\p{InCJK Unified Ideographs}', '\u4e00', 'f', 'block with spaces'),
  c('\\p{InCJK-Unified-Ideographs}', '\u4e00', 'e', 'block with dashes'),
  c('\\p{block=Latin-1 Supplement}', '\u00e9', 'f', 'block= with a dash in the name'),
  // 2. \b{...} and \N{...}
  c('a\\b{g}b', 'ab', 'u', 'grapheme boundary'),
  c('a\\b{w}', 'a', 'e', '\\b{w} is \\b then an illegal repetition'),
  c('a\\b{2}', 'a', 'f', '\\b repeated twice'),
  c('a\\b{gx}', 'a', 'e', '\\b{g followed by something else'),
  c('a\\b{}', 'a', 'e', 'empty braces after \\b'),
  c('\\b{G}', 'a', 'e', 'upper-case G is not a boundary'),
  c('\\N{NOT A NAME}', 'x', 'e', 'unknown character name'),
  c('\\N{LATIN SMALL LETTER E WITH ACUTE}', '\u00e9', 'f', 'character name'),
  c('\\N{latin small letter e with acute}', '\u00e9', 'f', 'names ignore case'),
  c('\\N{ LATIN SMALL LETTER A }', 'A', 'f', 'names are trimmed; ASCII folded'),
  c('\\N{\u00a0LATIN SMALL LETTER A}', 'a', 'e', 'String.trim keeps a NBSP'),
  c('\\N{CJK UNIFIED IDEOGRAPHS 4E00}', '\u4e00', 'f', "Java's block-based name"),
  c('\\N{CJK UNIFIED IDEOGRAPH-4E00}', '\u4e00', 'e', "Unicode's algorithmic name is not Java's"),
  c('\\N{HANGUL SYLLABLES AC00}', '\uac00', 'f', 'Hangul by block name'),
  c('\\N{BASIC LATIN 41}', 'A', 'e', 'a named character has no block-based name'),
  c('\\N{GRINNING FACE}', '\u{1F600}', 'f', 'supplementary character name'),
  c('\\N{U+0041}', 'A', 'e', 'not a name'),
  c('\\N{}', 'A', 'e', 'empty name'),
  c('\\N{LATIN SMALL LETTER A', 'a', 'e', 'unclosed name'),
  c('\\NA', 'a', 'e', 'no brace'),
  c('[\\N{LATIN SMALL LETTER A}-\\N{LATIN SMALL LETTER C}]', 'B', 'f', 'names in a class range'),
  c('\\N{VARIATION SELECTOR-16}', '\ufe0f', 'f', 'variation selector'),
  c('\\N{ZERO WIDTH JOINER}', '\u200d', 'f', 'ZWJ'),
  // 3. \R under a quantifier
  c('\\R+\\n', '\r\n', 'f', '\\R+ keeps the \\n'),
  c('\\R{2}', '\r\n', 'f', '\\R{2} on one CRLF'),
  c('(?:\\R){2}', '\r\n', 'f', 'group of \\R twice'),
  c('\\R?\\n', '\r\n', 'f', '\\R? keeps the \\n'),
  c('(?:\\R)?\\n', '\r\n', 'f', 'a ? group backtracks into \\r'),
  c('(\\R)+\\n', '\r\n', 'f', 'capturing group of \\R'),
  c('(?:\\R){0,1}\\n', '\r\n', 'f', '{0,1} on a group backtracks like ?'),
  c('\\R{0,1}\\n', '\r\n', 'f', 'counted optional \\R'),
  c('\\R*?\\n', '\r\n', 'f', 'lazy \\R'),
  c('\\R*\\n', '\r\n\n', 'f', '\\R* then a newline'),
  c('a\\R+b', 'a\r\n\r\nb', 'f', 'several CRLF'),
  c('(?:\\R|x)+\\n', '\r\n', 'f', 'alternation makes a Loop that backtracks'),
  c('(?:.*\\R)*\\n', '\r\n', 'f', 'a range quantifier makes a Loop'),
  c('(?:\\R\\s)+\\n', '\r\n\n', 'u', 'deterministic group with \\R inside'),
  c('(?:\\R\\s){1}\\n', '\r\n\n', 'u', 'GroupCurly with \\R inside'),
  c('(?<l>\\R)+', '\r\n\n', 'f', 'named group of \\R'),
  c('\\R++\\n', '\r\n', 'f', 'possessive \\R'),
  c('(?>\\R)\\n', '\r\n', 'f', 'atomic \\R'),
  c('\\R\\n', '\r\n', 'f', 'plain \\R still backtracks'),
  // 4. look-behind over supplementary characters
  c('.*(?<=x.)y', 'x\u{1F600}y', 'u', 'look-behind steps UTF-16 units in Java'),
  c('.*(?<=x.)y\u{1F600}', 'x\u{1F600}y\u{1F600}', 'f', 'a supplementary literal makes Java step by code point'),
  c('.*(?<=x.)y', 'xay', 'f', 'look-behind without surrogates'),
  c('\u{1F600}?.*(?<=x.)y', 'x\u{1F600}y', 'u', 'a supplementary literal before the look-behind does not make Java step by code point'),
  c('.*(?<!\\d)UGX', '\u{1F600}UGX', 'u', 'negative look-behind next to an emoji'),
  c('.*(?<!\\d)UGX.*', 'Bal UGX 5', 'f', 'negative look-behind, BMP reply'),
  c('(?s).*(?<!.*+)[\\s\\S]*', 'ab', 'u', 'a possessive quantifier in a look-behind runs past it in Java'),
  c('.*(?<=\\w*+)(?:\\w|b){2}.*', 'ab', 'u', 'possessive in a positive look-behind'),
  c('.*(?<=(?>ab|a))c', 'abc', 'u', 'atomic group in a look-behind'),
  // 5. surrogates
  c('\\x{D83D}\\x{DE00}', '\u{1F600}', 'f', 'two escaped lone surrogates are not a pair'),
  c('\\x{D83D}', '\ud83d', 'f', 'a lone surrogate matches itself'),
  c('[\\x{D800}-\\x{DBFF}][\\x{DC00}-\\x{DFFF}]', '\u{1F600}', 'f', 'surrogate ranges do not split a pair'),
  c('[\\x{D83D}\\x{DE00}]', '\ud83d', 'f', 'lone surrogates in a class'),
  c('\\uD83D\\uDE00', '\u{1F600}', 'f', '\\u pair is one code point'),
  c('.\\b', '\u{1D400}', 'f', 'supplementary letter is a word character'),
  c('a\\u0301\\b', 'a\u0301', 'f', 'BMP mark after a letter'),
  c('a\\x{1D167}\\b.*', 'a\u{1D167}', 'f', 'supplementary mark after a letter: Java reads the low surrogate'),
  c('a.\\B.*', 'a\u{1D167}', 'f', '\\B after a supplementary mark'),
  c('\\x{1D400}\\u0301\\b', '\u{1D400}\u0301', 'f', 'BMP mark after a supplementary letter'),
  c('.\\b.', '\u{1D400}\u0301', 'f', 'boundary between a supplementary letter and its mark'),
  c('.*\\bx', '\u0870x', 'u', 'U+0870 differs between Unicode 13 and Node'),
  c('.*\\bx', '\u00e9x', 'f', 'an old letter does not block \\b'),
  // (?x) comments mode: parsed for compile errors, not evaluated
  c('(?x) a b # comment', 'ab', 'u', 'comments mode'),
  c('(?x)\\s(?x)?', 'x', 'e', 'a quantifier after a flag group, spaces skipped'),
  c('(?x)[ a b ]', ' ', 'u', 'spaces in a class are skipped too'),
  c('(?x)a #(\n(', 'a', 'e', 'a comment ends at the line break'),
  c('(?x)a #(', 'a', 'u', 'a comment to the end of the pattern'),
  c('(?x: a ) b', 'a b', 'u', 'scoped comments mode'),
  c('(?x)a\\ b', 'a b', 'u', 'an escaped space is a literal'),
  c('(?x)\\N{LATIN SMALL LETTER A}', 'a', 'u', 'a character name keeps its spaces in comments mode'),
  c('(?x)\\p{InBasic Latin}', 'a', 'u', 'a property name keeps its spaces in comments mode'),
  c('(?x)\\p{Is L}', 'a', 'e', 'so a space inside it is an unknown name'),
  // 10.10 deep nesting
  c(`${'('.repeat(200)}a${')'.repeat(200)}`, 'a', 'f', '200 nested groups'),
  c(`${'('.repeat(201)}a${')'.repeat(201)}`, 'a', 'u', '201 nested groups: not analysed'),
  c(`${'('.repeat(1300)}a${')'.repeat(1300)}`, 'a', 'u', '1,300 nested groups: Java may or may not compile them'),
  c(`${'(?:'.repeat(1000)}a${')'.repeat(1000)}`, 'a', 'u', '1,000 nested non-capturing groups'),
  // 6. an empty iteration inside an atomic group or possessive quantifier: Java keeps it (the
  // body's first match is ""), JavaScript refuses it and backtracks for a longer one. A possessive
  // quantifier's own iterations are emitted atomic, so only what repeats inside one is refused.
  c('(?:\\s*|\u00e9)?+', '\u00e9', 'f', 'possessive ? over a body whose first match is empty'),
  c('(?:(?:\u00df)?+(?:\\p{Lu})*?)?+', 'A', 'f', 'lazy star inside a possessive ?'),
  c('(?:(?:\\s)*|\\p{Lu}x)*+', 'Ax', 'f', 'possessive * over a body that can match empty'),
  c('(?>(?:|a)*)b', 'ab', 'u', 'a star inside an atomic group, empty branch first'),
  c('(?:,\\d{3})*+', ',123,456', 'f', 'possessive over a body that never matches empty'),
  c('(?>\\s*)x', '  x', 'f', 'atomic group over a single star'),
  // Found while merging with the differential fuzz's atomic iterations: the rule is still needed.
  c('(?>(?:\\s*|\u00e9)?)', '\u00e9', 'u', 'optional choice inside an atomic group, empty way first: Java keeps ""'),
  c('(?:(?:\\s*|\u00e9)?)++', '\u00e9', 'u', 'the same one level down in a possessive group'),
  c('(?>\\s*?)x', ' x', 'f', 'atomic group over a lazy star alone: both keep its empty first match'),
];

// Fragments for generated cases: every construct menuctl claims to evaluate, plus a few it refuses.
const ATOMS = [
  'a', 'b', 'A', 'UGX', ' ', '\\.', ',', '\u00e9', '\u{1F600}', '1', '\\d', '\\w', '\\s', '\\S', '\\h', '\\v', '.', '[a-z]', '[^\\s]',
  '[\\d,]', '[^a]', '\\p{L}', '\\p{Lu}', '\\p{IsLatin}', '\\p{javaLowerCase}', '\\P{InBasicLatin}', '\\p{Alpha}', '\\p{Punct}',
  '\\p{So}', '\\p{Mn}', '\\p{IsEmoji}', '\\N{LATIN SMALL LETTER E WITH ACUTE}', '\\x{1F600}', '\\x{D83D}', '\\uD83D\\uDE00',
  '\\R', '\\b', '\\B', '\\n', '\\r', '\\u00a0', '\\x{0301}', '\\Qa.\\E', '[\\p{L}&&[^a-z]]', '\\p{Sc}',
];
const QUANTS = ['', '', '', '*', '+', '?', '{2}', '{0,1}', '{1,3}', '*?', '+?', '*+', '++', '??'];
const PIECES = [
  'a', 'A', 'b', 'UGX', ' ', '.', ',', '1', '5', '\u00e9', '\u00c9', '\u{1F600}', '\r\n', '\n', '\r', '\u00a0', '\u0301',
  '\u{1D167}', '\u{1D400}', '\u0870', '\ud83d', '\u20ac', '\u0627', '\u00bf', 'x',
];

function generatedPattern(): fc.Arbitrary<string> {
  const atom = fc.tuple(fc.constantFrom(...ATOMS), fc.constantFrom(...QUANTS)).map(([a, q]) => a + q);
  const leaf = fc.array(atom, { minLength: 1, maxLength: 3 }).map((xs) => xs.join(''));
  const wrapped = fc.tuple(
    leaf,
    fc.constantFrom('(?:%)', '(?<g>%)', '(%)', '(?:%|b)', '(?=%)', '(?<=%)', '(?<!%)', '(?>%)', '%'),
    fc.constantFrom('', '', '*', '+', '?', '{2}', '{0,1}'),
  ).map(([body, shape, q]) => {
    const group = shape.replace('%', body);
    return shape === '%' || shape.startsWith('(?<=') || shape.startsWith('(?<!') || shape.startsWith('(?=') ? group : group + q;
  });
  return fc.tuple(fc.constantFrom('', '.*', '(?s).*'), fc.array(wrapped, { minLength: 1, maxLength: 3 }), fc.constantFrom('', '.*', '[\\s\\S]*'))
    .map(([pre, parts, post]) => pre + parts.join('') + post);
}

/** `count` seeded (regex, reply) pairs; the same list on every run. */
export function generatedCases(count: number, seed = 15): Case[] {
  const arb = fc.tuple(generatedPattern(), fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }));
  return fc.sample(arb, { seed, numRuns: count }).map(([pattern, pieces], i) => ({
    pattern,
    message: pieces.join(''),
    why: `generated #${i}`,
  }));
}
