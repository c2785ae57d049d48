// Scrubs personal data from text imported from the field (menuctl sessions import), so a real
// conversation can be committed as a regression test. Rules (docs/sessions.md "Scrubbing"):
// - phone and account numbers: a run of 9 digits (of any script) or more (a leading +, and dots, dashes, one or
//   two spaces or brackets between groups allowed) keeps its + and first 3 digits, every other
//   digit becomes 0, so the shape a parser expects survives ("0712345678" -> "0710000000"); a date
//   starting the run is kept;
// - e-mail addresses become user@example.com;
// - names: 1 to 3 capitalised words after a greeting or title (Dear, Hi, Hello, Mr, Mrs, Ms, Dr),
//   after a label ("name:", "recipient:", "agent:"...; in any case), next to a phone number ("JOHN DOE 0712345678"), or 2 to 3
//   words in capitals after "to"/"from" ("sent to JOHN DOE for ...") become "JANE DOE" (written in
//   capitals) or "Jane Doe";
// - values whose key names a person or number (name, phone, msisdn, account...) are replaced whole;
// - values whose key names a credential (pin, password, secret, otp, token) become ****.
// Over-scrubbing is the safe side: the imported session is reviewed before it is committed.
// Pure.

// Between the digit groups of a number: one dot or dash, one or two spaces, or brackets
// ("0712 345 678", "0712.345.678", "(0712) 345678"). Never a line break: a menu's lines stay apart.
const SEP = String.raw`(?:[.-]|[ ]{1,2}|\)[ ]?|[ ]?\()`;
// A phone or account number: 9 digits or more, no upper bound (card and bank account numbers).
// Digits of any script (Arabic-Indic, Devanagari, full-width...): a phone number typed on a
// phone set to Arabic is still a phone number.
const D = String.raw`\p{Nd}`;
const NUMBER = String.raw`\(?${D}(?:${SEP}?${D}){8,}`;
// A date that starts a run of digits ("2023-10-02 15:45", "08.08.2019 18:50"): kept, it is not a
// person's. Not when more groups follow ("07.12.34.56.78" is a phone number written with dots).
const DATE_SOURCE = String.raw`(?:${D}{4}[-./]${D}{1,2}[-./]${D}{1,2}|${D}{1,2}[-./]${D}{1,2}[-./](?:${D}{4}|${D}{2}))(?![-./]?${D})`;
const PHONE = new RegExp(String.raw`(\+?)(${NUMBER})(?!${D})`, 'gu');
// From where a run of address characters starts only: from each of its characters it was quadratic.
const EMAIL = /(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
// Names in any script with capitals (José, ÉLODIE, Ọlá): letters and combining marks. `\b` is
// ASCII-only, so word edges are written as "no letter or digit before/after".
const WORD = String.raw`\p{Lu}[\p{L}\p{M}'’-]+`;
// Words of a name are on one line.
const NAME = String.raw`${WORD}(?:[ \t]+${WORD}){0,2}`;
const START = String.raw`(?<![\p{L}\p{M}\p{N}])`;
const END = String.raw`(?![\p{L}\p{M}\p{N}])`;
// Greetings, titles and labels in any case: operators write whole screens in capitals ("NAME: JOHN
// KAMAU", "DEAR JOHN"). Spelled letter by letter because the `i` flag would also make \p{Lu} in the
// name match lower case letters.
const anyCase = (word: string) => word.replace(/[a-z]/gi, (c) => `[${c.toUpperCase()}${c.toLowerCase()}]`);
const HONORIFICS = ['Mr\\.?', 'Mrs\\.?', 'Ms\\.?', 'Dr\\.?'];
const TITLES = ['Dear', 'Hi', 'Hello', ...HONORIFICS, 'name:', 'recipient:', 'agent:', 'payee:', 'beneficiary:', 'receiver:', 'sender:', 'customer:'];
// "Hi DR. JOHN": the honorifics after a greeting are kept, the name after them replaced.
const AFTER_TITLE = new RegExp(
  String.raw`${START}(${TITLES.map(anyCase).join('|')})((?:[ \t]+(?:${HONORIFICS.map(anyCase).join('|')})${END})*)([ \t]+|[ \t]*\r?\n)(${NAME})`, 'gu',
);
// The number shape survives masking (digits stay digits), so the same pattern finds a name next to
// a number before and after it is masked.
// Also across a comma and one lower-case word ("Mwangi Kamau, simu 0712 345678", "JOHN, tel. 0712..."),
// never across a lower-case word alone: "Appelez le 07.12.34.56.78" is a sentence, not a name.
const BEFORE_PHONE = new RegExp(String.raw`${START}(${NAME})(\s+|,[ \t]*(?:\p{Ll}+\.?:?[ \t]+)?)(?=\+?${NUMBER})(?!${DATE_SOURCE})`, 'gu');
// Operators write payees in capitals: "sent to JOHN DOE for account 1234". Two words at least, so
// "Welcome to M-PESA" stays.
const CAPS = String.raw`\p{Lu}[\p{Lu}\p{M}'’-]*\.?`;
const AFTER_TO = new RegExp(String.raw`${START}(to|from|To|From)(:?\s+)(${CAPS}(?:[ \t]+${CAPS}){1,2})${END}`, 'gu');
// After a number only on its line: the next line is usually the next prompt ("Enter PIN:").
// Tried only where a number starts: from inside one it would find the same end, and trying every
// digit of a long run made the scan quadratic (50,000 digits: 4.3 s -> milliseconds).
const AFTER_PHONE = new RegExp(String.raw`(?<!${D}${SEP}?)(\+?${NUMBER})([ \t]+-?[ \t]*)(${NAME})`, 'gu');

/** Words that read like a name next to a number but are part of the message's own vocabulary. */
const NOT_NAMES = new Set([
  'to', 'from', 'ksh', 'ugx', 'kes', 'tzs', 'account', 'acc', 'number', 'no', 'on', 'at', 'for', 'new', 'balance', 'phone', 'mobile', 'tel',
  'call', 'dial', 'card', 'send', 'sent', 'pay', 'paid', 'till', 'paybill', 'ref', 'reference', 'contact', 'sms', 'id', 'confirm', 'enter', 'agent',
]);

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
  return text.replace(PHONE, (_m: string, plus: string, digits: string) => {
    const date = DATE.exec(digits);
    return date ? plus + date[0] + maskNumbers(digits.slice(date[0].length)) : plus + maskDigits(digits);
  });
}

/**
 * `found`, when given, collects each name the rules replaced, as written: a variable holding one of
 * them is then replaced the same way (scrubValue), so a session stays consistent with its screens.
 */
export function scrubText(text: string, keep: readonly string[] = [], found?: Set<string>): string {
  const stand = (name: string) => {
    const replaced = placeholder(name, keep);
    if (replaced !== name) found?.add(name);
    return replaced;
  };
  let out = text.replace(EMAIL, 'user@example.com');
  out = maskNumbers(out);
  out = out.replace(AFTER_TITLE, (_m, title: string, honorifics: string, space: string, name: string) => `${title}${honorifics}${space}${stand(name)}`);
  out = out.replace(BEFORE_PHONE, (_m, name: string, space: string) => `${stand(name)}${space}`);
  out = out.replace(AFTER_TO, (_m, word: string, space: string, name: string) => `${word}${space}${stand(name)}`);
  out = out.replace(AFTER_PHONE, (_m, phone: string, space: string, name: string) => `${phone}${space}${stand(name)}`);
  return out;
}

/** Keeps the first 3 digits (a country or network prefix says nothing about a person). */
function maskDigits(text: string): string {
  let kept = 0;
  return text.replace(/\p{Nd}/gu, (d) => (kept++ < 3 ? d : zeroOf(d)));
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

/** A stand-in of the same style; words that are vocabulary or kept (sender ids) stay. */
function placeholder(name: string, keep: readonly string[]): string {
  const words = name.split(/\s+/);
  const first = words.findIndex((w) => !NOT_NAMES.has(w.toLowerCase()) && !keep.includes(w));
  if (first < 0) return name;
  const head = words.slice(0, first).join(' ');
  const caps = words[first] === words[first]!.toUpperCase();
  const stand = caps ? 'JANE DOE' : 'Jane Doe';
  return head ? `${head} ${stand}` : stand;
}

/**
 * A value entered or parsed: replaced whole when its key names a person, or when it is a name the
 * text rules found in the same record's screens or SMS (`names`, from scrubText); else scrubbed as
 * text, exactly as the messages are, so a `select:` value still finds its option and a captured
 * value still equals what the parser captures.
 */
export function scrubValue(
  key: string, value: string, keep: readonly string[] = [], names: ReadonlySet<string> = new Set(), entered = false,
): string {
  if (SECRET_KEY.test(key) || (entered && ENTERED_SECRET_KEY.test(key))) return MASKED;
  if (!PERSONAL_KEY.test(key)) return names.has(value.trim()) ? placeholder(value.trim(), keep) : scrubText(value, keep);
  if (/^\+?[\p{Nd}\s-]+$/u.test(value)) return maskDigits(value);
  // The same stand-in the text rules give, so a captured name still equals the scrubbed message's.
  return value === value.toUpperCase() ? 'JANE DOE' : 'Jane Doe';
}
