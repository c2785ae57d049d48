// Scrubs personal data from text imported from the field (menuctl sessions import, and every message
// menuctl replay shows), so a real conversation can be committed as a regression test or quoted in
// a pull request. Rules (docs/sessions.md "Scrubbing"):
// - phone, account and id numbers: a run of 8 digits (of any script) or more (a leading +, and
//   between groups a dot or dash, up to three spaces, no-break spaces or brackets allowed) keeps its +
//   and first 3 digits, every other digit becomes 0, so the shape a parser expects survives
//   ("0712345678" -> "0710000000"); a date starting the run is kept, and so is money: a run with a
//   currency next to it ("UGX 12500000", "12 500 000 FCFA") or with two decimals ("1234567.00");
// - after a credential word (PIN, OTP, password, code secret, siri, senha...) or an id label (ID No.,
//   National ID, NIN, CNI, kitambulisho...), the value is masked whole: digits 0, letters X;
// - e-mail addresses become user@example.com;
// - names: 1 to 3 capitalised words after a greeting or title (scrub-vocabulary.ts: Dear, Bonjour,
//   Jambo, Karibu, Mme, M., Sr....), after an owner phrase ("registered to", "au nom de"), after a
//   label ("name:", "recipient:"...; there in any case, "Recipient: john kamau"), next to a number
//   ("JOHN DOE 0712345678"), or 2 to 3 capitalised words after "to"/"from" in any case ("sent to
//   JOHN DOE", "SENT TO Mary Otieno") become "JANE DOE" (written in capitals) or "Jane Doe";
//   words of the messages' own vocabulary (NOT_NAMES: "Customer", "M-PESA", "Ksh") are not names;
// - values whose key names a person or number (name, phone, msisdn, account...) are replaced whole,
//   unless the value is a menu option the record's screens show (its number or text);
// - values whose key names a credential (pin, password, secret, otp, token) become ****.
// Over-scrubbing is the safe side: the imported session is reviewed before it is committed. Every
// rule is linear in the text's length (bench/scrub.mjs): a record is user data of any size.
// Pure.

import { fold, menuOptions } from './options.js';
import { CASED_HONORIFICS, CURRENCIES, GREETINGS, HONORIFICS, NAME_LABELS, NOT_NAMES, OWNER_PHRASES } from './scrub-vocabulary.js';

// Horizontal space between digit groups: spaces, a tab, and the no-break spaces French typography
// puts there ("07 12 34 56 78" with U+202F). Never a line break: a menu's lines stay apart.
const H = String.raw`[ \t\u00a0\u202f\u2009]`;
// Between the digit groups of a number: a dot or dash (spaces after it allowed), up to three spaces
// (a dot or dash among them: "+254 - 712"), or brackets ("0712 345 678", "0712.345.678",
// "(0712) 345678"). The alternatives start with different characters and each reads a gap one way
// only, so a failed match does not backtrack through the ways of splitting every gap.
const SEP = String.raw`(?:[.-]${H}{0,2}|${H}{1,3}(?:[.-]${H}{0,2})?|\)${H}?|${H}?\()`;
// A phone, account or id number: 8 digits or more (8-digit numbers are phone numbers in much of West
// Africa and national ids in Kenya), no upper bound (card and bank account numbers).
// Digits of any script (Arabic-Indic, Devanagari, full-width...): a phone number typed on a
// phone set to Arabic is still a phone number.
const D = String.raw`\p{Nd}`;
const NUMBER = String.raw`\(?${D}(?:${SEP}?${D}){7,}`;
// A date that starts a run of digits ("2023-10-02 15:45", "08.08.2019 18:50"): kept, it is not a
// person's. Not when more groups follow ("07.12.34.56.78" is a phone number written with dots).
const DATE_SOURCE = String.raw`(?:${D}{4}[-./]${D}{1,2}[-./]${D}{1,2}|${D}{1,2}[-./]${D}{1,2}[-./](?:${D}{4}|${D}{2}))(?![-./]?${D})`;
// A date written without separators, as references and statements do ("20231002").
const COMPACT_DATE = /^(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])$/;
const PHONE = new RegExp(String.raw`(\+?)(${NUMBER})(?!${D})`, 'gu');
// Money: a currency just before or after the run (a decimal part between: "12 500 000,00 FCFA"),
// or one decimal point and two decimals. Amounts of 8 digits are written that way; phone numbers not.
const CURRENCY = `(?:${CURRENCIES.join('|')})`;
const MONEY_BEFORE = new RegExp(String.raw`(?<![\p{L}])${CURRENCY}${H}?$`, 'iu');
// A currency glued to what follows is the next amount's ("0722000111 KSH500.00").
const MONEY_AFTER = new RegExp(String.raw`^(?:[.,]${D}{1,2})?${H}?${CURRENCY}(?![\p{L}\p{N}])`, 'iu');
const DECIMAL_AMOUNT = new RegExp(String.raw`^${D}+\.${D}{2}$`, 'u');
// From where a run of address characters starts only: from each of its characters it was quadratic.
const EMAIL = /(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
// Names in any script with capitals (José, ÉLODIE, Ọlá): letters and combining marks. `\b` is
// ASCII-only, so word edges are written as "no letter or digit before/after".
// At most 40 letters after the capital: unbounded, a line of "A-A-A-..." made every `-` a new
// start that read to the end of the line (quadratic); no name's word is longer.
const WORD = String.raw`\p{Lu}[\p{L}\p{M}'’-]{1,40}`;
// Words of a name are on one line.
const NAME = String.raw`${WORD}(?:[ \t]+${WORD}){0,2}`;
// After a label's colon a name is written in any case ("Recipient: john kamau").
const ANY_WORD = String.raw`\p{L}[\p{L}\p{M}'’-]+`;
const ANY_NAME = String.raw`${ANY_WORD}(?:[ \t]+${ANY_WORD}){0,2}`;
const START = String.raw`(?<![\p{L}\p{M}\p{N}])`;
const END = String.raw`(?![\p{L}\p{M}\p{N}])`;
// Greetings, titles and labels in any case: operators write whole screens in capitals ("NAME: JOHN
// KAMAU", "DEAR JOHN", "BONJOUR MME DIOP"). Spelled letter by letter because the `i` flag would
// also make \p{Lu} in the name match lower case letters.
const anyCase = (source: string) => source.replace(/\p{L}/gu, (c) => {
  const [upper, lower] = [c.toUpperCase(), c.toLowerCase()];
  return upper === lower || upper.length !== 1 ? c : `[${upper}${lower}]`;
});
const HONORIFIC = [...HONORIFICS.map(anyCase), ...CASED_HONORIFICS].join('|');
const LABEL = NAME_LABELS.map(anyCase).join('|');
const TITLES = [...GREETINGS.map(anyCase), HONORIFIC, ...NAME_LABELS.map((l) => `${anyCase(l)}:`), ...OWNER_PHRASES.map(anyCase)].join('|');
// "Hi DR. JOHN": the honorifics after a greeting are kept, the name after them replaced.
const AFTER_TITLE = new RegExp(
  String.raw`${START}(${TITLES})((?:[ \t]+(?:${HONORIFIC})${END})*)([ \t]+|[ \t]*\r?\n)(${NAME})`, 'gu',
);
// "Recipient: john kamau": after a label's colon, on its line, a name in any case.
const AFTER_LABEL = new RegExp(String.raw`${START}((?:${LABEL})[ \t]*:[ \t]*)(${ANY_NAME})${END}`, 'gu');
// The number shape survives masking (digits stay digits), so the same pattern finds a name next to
// a number before and after it is masked.
// Also across a comma and one lower-case word ("Mwangi Kamau, simu 0712 345678", "JOHN, tel. 0712..."),
// never across a lower-case word alone: "Appelez le 07.12.34.56.78" is a sentence, not a name.
const BEFORE_PHONE = new RegExp(String.raw`${START}(${NAME})(\s+|,[ \t]*(?:\p{Ll}+\.?:?[ \t]+)?)(?=\+?${NUMBER})(?!${DATE_SOURCE})`, 'gu');
// Payees after "to"/"from" ("sent to JOHN DOE for account 1234", "SENT TO Mary Otieno"), the word in
// any case. Two words at least and the first not the messages' own ("Welcome to M-PESA", "Go to Main
// Menu", "Welcome to Safaricom Home" stay).
// A word, or an initial with or without its dot ("MARY W. KAMAU"); a sentence's full stop ends the name.
const TO_WORD = String.raw`\p{Lu}(?:[\p{L}\p{M}'’-]+|\.)?`;
const AFTER_TO = new RegExp(String.raw`${START}(${anyCase('to')}|${anyCase('from')})(:?\s+)(${TO_WORD}(?:[ \t]+${TO_WORD}){1,2})${END}`, 'gu');
// After a number only on its line: the next line is usually the next prompt ("Enter PIN:").
// Tried only where a number starts: from inside one it would find the same end, and trying every
// digit of a long run made the scan quadratic (50,000 digits: 4.3 s -> milliseconds).
const AFTER_PHONE = new RegExp(String.raw`(?<!${D}${SEP}?)(\+?${NUMBER})([ \t]+-?[ \t]*)(${NAME})`, 'gu');

// Credentials written in a message: "Your PIN is 4821", "OTP: 482913", "code secret: 1234",
// "siri ni 1234", "senha 1234", and the other way round, "482913 is your verification code".
// Regex sources, matched in any case.
const CREDENTIAL = [
  String.raw`(?:m-?)?pin\d?(?:${H}?code)?`, 'otp', String.raw`one[ -]time${H}+(?:password|passcode|pin|code)`, 'pass(?:word|code)', 'token',
  String.raw`(?:verification|confirmation|security|activation|secret|access|authentication|reset)${H}+code`,
  String.raw`code${H}+(?:secret|pin|otp|de${H}+(?:v[ée]rification|confirmation|s[ée]curit[ée]|validation|activation))`,
  String.raw`mot${H}+de${H}+passe`, 'nip',
  String.raw`(?:namba|nambari|neno)${H}+(?:yako${H}+)?(?:ya${H}+)?siri`, 'siri', String.raw`msimbo(?:${H}+wa${H}+(?:siri|uthibitisho|kuthibitisha|uhakiki))?`,
  'senha', 'palavra[- ]passe', 'contrase[ñn]a', 'clave',
  String.raw`c[oó]digo(?:${H}+(?:secreto|otp|pin|de${H}+(?:verifica[cç][aã]o|verificaci[oó]n|confirma[cç][aã]o|confirmaci[oó]n|seguran[cç]a|seguridad|acesso|acceso)))?`,
  String.raw`(?:رقم|رمز)[\u0621-\u064A]*${H}+(?:ال)?سر[يى]`, String.raw`كلمة${H}+(?:المرور|السر)`, String.raw`رمز${H}+(?:التحقق|التفعيل|الدخول)`,
].join('|');
// Words between the credential and its value ("Your new PIN is 4821", "siri yako ni 1234").
const FILLER = [
  'is', 'ni', 'est', 'es', 'é', 'será', 'sera', 'your', 'new', 'the', 'yako', 'mpya', 'wako', 'lako', 'votre', 'ton', 'nouveau', 'nouvel',
  'su', 'seu', 'sua', 'tu', 'nuevo', 'novo', 'nova', 'temporary', 'temporaire', 'temporal', 'temporária', 'provisória', 'number', 'no\\.?', 'namba', 'nambari', 'code',
  'de', 'ya', 'la', 'le', 'el', 'for', 'pour', 'para', 'kwa', 'login', 'hii', 'هو', 'الخاص', 'بك', 'الجديد',
].join('|');
// The value: 4 to 12 digits, or capitals and digits with two digits at least ("A7K9Q2").
const SECRET_VALUE = String.raw`${D}{4,12}|(?=\p{Lu}*${D}\p{Lu}*${D})[\p{Lu}${D}]{5,12}`;
const SECRET_AFTER = new RegExp(
  String.raw`(?<![\p{L}\p{N}])((?:${CREDENTIAL})(?![\p{L}])(?:${H}*[:=#-]|${H}+(?:${FILLER})(?![\p{L}\p{N}])){0,5}${H}*)(${SECRET_VALUE})(?![\p{L}\p{N}])`, 'giu',
);
// Digits only before the word: an OTP is read out as digits, and the other shape, tried at every
// letter, doubled what this rule cost.
const SECRET_BEFORE = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(${D}{4,12})(?=${H}+(?:is|ni|est|es|é|as|como|comme)${H}+(?:[\p{L}'’-]+${H}+){0,3}?(?:${CREDENTIAL})(?![\p{L}]))`, 'giu',
);
// Ids after their label: "ID No. 12345678", "National ID: 23456789", "NIN: CM90012345ABCD",
// "CNI N° 1234567890123", "kitambulisho namba 12345678". Not a transaction's or an order's id
// ("Tran ID 123": what parsers capture).
const ID_LABEL = String.raw`(?<!(?:tran|trans|transaction|txn|order|ref|reference|request|session|receipt|agent|merchant|till|device|user|op[ée]ration|payment|business|product)${H}*)` +
  String.raw`(?:national${H}+id|id|i\.d\.|identity|identit[ée]|kitambulisho|nin|nida|cni|passport|passeport|c[ée]dula|nuit|bi)` +
  String.raw`(?:${H}*(?:card|number|no\.?|num\.?|n[°º]|namba|nambari|cha|num[ée]ro|n[úu]mero|#))?`;
const ID_NUMBER = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(${ID_LABEL}${H}*[:.#=-]?${H}*)((?=(?:[\p{L}/-]*${D}){5})[\p{L}${D}][\p{L}${D}/-]*[\p{L}${D}])(?![\p{L}\p{N}])`, 'giu',
);
// Most messages name no credential and no id: a cheap look for the words first skips three of the
// costliest rules (replay scrubs every distinct unclassified message).
const MAY_HOLD_SECRET = /pin|otp|pass|token|code|siri|nip|senha|clave|contrase|c[oó]digo|msimbo|رمز|رقم|كلمة/i;
const MAY_HOLD_ID = /id|nin|nida|cni|passport|passeport|kitambulisho|c[ée]dula|nuit|bi/i;

export const PERSONAL_KEY = /name|phone|msisdn|mobile|recipient|payee|receiver|beneficiary|account|email|id_?number|national/i;
/** Keys whose values are credentials: never written, whatever they look like. */
export const SECRET_KEY = /pin|passw|passcode|secret|otp|token/i;
/**
 * What the user typed under a `code` key is a secret code or voucher; what a parser captured as
 * `code` is the message's own transaction code (`QAB1CD2EF3 Confirmed`), which the SMS keeps and
 * the session's expectation must still equal.
 */
const ENTERED_SECRET_KEY = /code/i;
/** A screen that asks for a credential: what the device answered it with is a PIN. */
// A screen asking for a secret: PIN (also MPIN, M-PIN, PIN1), password, a secret code, and the
// words Swahili and French menus use (siri, mot de passe, code secret, NIP).
// Also Portuguese (senha, palavra-passe, código secreto), Spanish (contraseña, clave) and Arabic
// menus: the secret number or code with or without its article or a possessive ("الرقم السري",
// "رقمك السري", "رقم سري"), سري also spelled with a final ى as Egyptian menus write it, and the
// password (كلمة المرور, كلمة السر).
const ARABIC_SECRET = String.raw`(?:رقم|رمز)[\u0621-\u064A]*\s+(?:ال)?سر[يى](?![\u0621-\u064A])|كلمة\s+(?:المرور|السر)`;
export const SECRET_PROMPT = new RegExp(
  String.raw`(\b|m-?)pin\d*\b|\bpass(word|code)\b|\bsecret\b|\bsiri\b|\bmot de passe\b|\bnip\b|\bsenha\b|\bpalavra[- ]passe\b|\bc[oó]digo secreto|\bcontrase[ñn]a|\bclave\b|${ARABIC_SECRET}`, 'i',
);
export const MASKED = '****';

/** An SMS sender id is the operator's (kept) unless it is a phone number (masked). */
export function scrubSender(sender: string): string {
  return maskNumbers(sender);
}

const DATE = new RegExp(`^${DATE_SOURCE}`, 'u');

function maskNumbers(text: string): string {
  return text.replace(PHONE, (match: string, plus: string, digits: string, at: number, whole: string) => {
    if (plus === '' && isMoney(digits, whole.slice(Math.max(0, at - 10), at), whole.slice(at + match.length, at + match.length + 16))) return match;
    if (plus === '' && COMPACT_DATE.test(digits)) return match;
    // "+" says phone number: "+2023-10-02..." is not a date.
    if (plus !== '') return plus + maskDigits(digits);
    // Dates at the start are kept, all of them in a loop (one call per date overflowed the stack
    // on a line of dates); what follows them is looked at once more.
    let kept = '';
    let rest = digits;
    for (;;) {
      const gap = kept === '' ? '' : /^[ \t]*/.exec(rest)![0];
      const date = DATE.exec(rest.slice(gap.length));
      if (date === null || date[0] === '') break;
      kept += gap + date[0];
      rest = rest.slice(gap.length + date[0].length);
    }
    return kept === '' ? maskDigits(digits) : kept + maskNumbers(rest);
  });
}

function isMoney(digits: string, before: string, after: string): boolean {
  return DECIMAL_AMOUNT.test(digits) || MONEY_BEFORE.test(before) || MONEY_AFTER.test(after);
}

/**
 * `found`, when given, collects each name the rules replaced, as written: a variable holding one of
 * them is then replaced the same way (scrubValue), so a session stays consistent with its screens.
 */
export function scrubText(text: string, keep: readonly string[] = [], found?: Set<string>): string {
  const stand = (name: string, strict = false) => {
    const replaced = placeholder(name, keep, strict);
    if (replaced !== name) found?.add(name);
    return replaced;
  };
  let out = text.replace(EMAIL, 'user@example.com');
  // Credentials and ids first, masked whole: the number rule would keep 3 of their digits.
  if (MAY_HOLD_SECRET.test(out)) {
    out = out.replace(SECRET_AFTER, (_m, before: string, value: string) => before + maskWhole(value));
    out = out.replace(SECRET_BEFORE, (value: string) => maskWhole(value));
  }
  if (MAY_HOLD_ID.test(out)) out = out.replace(ID_NUMBER, (_m, label: string, value: string) => label + maskWhole(value));
  out = maskNumbers(out);
  out = out.replace(AFTER_TITLE, (_m, title: string, honorifics: string, space: string, name: string) => `${title}${honorifics}${space}${stand(name)}`);
  // A name right after a label's colon starts there: a label followed by its own words ("Name: not set") is no name.
  out = out.replace(AFTER_LABEL, (_m, label: string, name: string) => `${label}${stand(name, true)}`);
  out = out.replace(BEFORE_PHONE, (_m, name: string, space: string) => `${stand(name)}${space}`);
  out = out.replace(AFTER_TO, (_m, word: string, space: string, name: string) => `${word}${space}${stand(name, true)}`);
  out = out.replace(AFTER_PHONE, (_m, phone: string, space: string, name: string) => `${phone}${space}${stand(name)}`);
  return out;
}

/** Keeps the first 3 digits (a country or network prefix says nothing about a person). */
function maskDigits(text: string): string {
  let kept = 0;
  return text.replace(/\p{Nd}/gu, (d) => (kept++ < 3 ? d : zeroOf(d)));
}

/** A credential or id keeps its shape only: every digit 0, every letter X (x in lower case). */
function maskWhole(text: string): string {
  return text.replace(/\p{Nd}/gu, zeroOf).replace(/\p{L}/gu, (c) => (c === c.toLowerCase() ? 'x' : 'X'));
}

/** The zero of a digit's own script ("٧" -> "٠"): Unicode's decimal digits come in runs of ten from zero. */
function zeroOf(digit: string): string {
  let cp = digit.codePointAt(0)!;
  let start = cp;
  while (start > 0 && DIGIT.test(String.fromCodePoint(start - 1))) start--;
  cp -= (cp - start) % 10;
  return String.fromCodePoint(cp);
}

const DIGIT = /^\p{Nd}$/u;

const isVocabulary = (word: string, keep: readonly string[]) => NOT_NAMES.has(word.toLowerCase()) || keep.includes(word);

/**
 * A stand-in of the same style for the words between the vocabulary and kept words (sender ids)
 * that lead and trail it ("Salio Tsh" stays, "JOHN KAMAU ON" -> "JANE DOE ON"). `strict`: where a
 * name would start the candidate (after "to", after a label's colon), a first word of the
 * vocabulary says it is no name at all ("to Main Menu", "to Safaricom Home").
 */
function placeholder(name: string, keep: readonly string[], strict = false): string {
  const words = name.split(/\s+/);
  const first = words.findIndex((w) => !isVocabulary(w, keep));
  if (first < 0 || (strict && first > 0)) return name;
  let last = words.length - 1;
  while (isVocabulary(words[last]!, keep)) last--;
  const style = words.slice(first, last + 1).join(' ');
  const stand = style === style.toUpperCase() ? 'JANE DOE' : 'Jane Doe';
  return [...words.slice(0, first), stand, ...words.slice(last + 1)].join(' ');
}

/** What a value is scrubbed against: the rest of its record. */
export interface ValueContext {
  /** Words kept as written (the record's SMS sender ids). */
  keep?: readonly string[];
  /** Names the text rules found in the record's screens and SMS (scrubText's `found`). */
  names?: ReadonlySet<string>;
  /** The value was entered on the device (values_entered, input_extras), not parsed from a message. */
  entered?: boolean;
  /** The record's menu options (menuOptionsShown): a value that is one of them is menu text, not personal. */
  options?: ReadonlyMap<string, string>;
}

/**
 * The menu options the record's screens list, each by its number and by its folded text (as
 * `select` reads it), to the option as the scrubbed screen shows it: a value that names an option
 * is what the screen says, which leaks nothing the scrubbed screen does not show.
 */
export function menuOptionsShown(screens: readonly string[], scrubbedScreens: readonly string[]): Map<string, string> {
  const shown = new Map<string, string>();
  screens.forEach((screen, i) => {
    const raw = menuOptions(screen);
    const scrubbed = menuOptions(scrubbedScreens[i] ?? '');
    raw.forEach((o, k) => {
      // The rules never change an option's number (too short to mask), so the lists pair up.
      const as = scrubbed[k]?.number === o.number ? scrubbed[k]! : { number: o.number, text: scrubText(o.text) };
      if (!shown.has(o.number)) shown.set(o.number, as.number);
      if (!shown.has(fold(o.text))) shown.set(fold(o.text), as.text);
    });
  });
  return shown;
}

/**
 * A value entered or parsed: a menu option the record shows, as its scrubbed screen shows it;
 * replaced whole when its key names a person, or when it is a name the text rules found in the
 * same record's screens or SMS (`names`, from scrubText); else scrubbed as text, exactly as the
 * messages are, so a `select:` value still finds its option and a captured value still equals what
 * the parser captures.
 */
export function scrubValue(key: string, value: string, context: ValueContext = {}): string {
  const { keep = [], names = new Set<string>(), entered = false, options } = context;
  if (SECRET_KEY.test(key) || (entered && ENTERED_SECRET_KEY.test(key))) return MASKED;
  const option = options?.get(/^\s*\d+\s*$/.test(value) ? value.trim() : fold(value));
  // An option's text as the screen shows it; the value as written when the screen kept it ("weekly bundle" for "Weekly Bundle").
  if (option !== undefined) return fold(option) === fold(value) ? value : option;
  if (!PERSONAL_KEY.test(key)) return names.has(value.trim()) ? placeholder(value.trim(), keep) : scrubText(value, keep);
  if (/^\+?[\p{Nd}\s-]+$/u.test(value)) return maskDigits(value);
  // The same stand-in the text rules give, so a captured name still equals the scrubbed message's.
  return value === value.toUpperCase() ? 'JANE DOE' : 'Jane Doe';
}
