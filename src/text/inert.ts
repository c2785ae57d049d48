// The one escaping rule for text that came from outside menuctl (an API's answer, a config or
// plan file) on its way to a terminal, a log or markdown. A server's error
// detail or a resource's name must not move the cursor, set the window title, clear the screen,
// reorder what is shown (bidi overrides) or start a line of its own that fakes a result
// ("✓ create ..."). JSON output needs only what JSON.stringify leaves raw (inertJson).
//
// What is escaped, each character on its own, as JSON writes it (`\n`, `\r`, `\t`, else
// `\uXXXX`; an astral character as its two UTF-16 halves), so an escape can be pasted into JSON:
//   - control characters, C0, DEL and C1 (ESC, BEL, backspace, CR, CSI U+009B, NEL U+0085) (Cc)
//   - format characters: bidi embeddings, overrides and isolates (U+202A-202E, U+2066-2069),
//     marks (U+200E/F, U+061C), zero-width characters, the BOM, soft hyphen, tags (Cf)
//   - line and paragraph separators U+2028, U+2029 (Zl, Zp)
//   - lone surrogates, which terminals draw as anything (Cs)
// Everything else, backslashes included, is left as written: a regex reads as in the YAML.
//
// Properties (test/text/inert.test.ts): the output has none of the characters above, so it
// is one line that draws only what it shows; inert is idempotent (escaping twice is harmless,
// so a layer need not know whether another escaped already); on text without a backslash it is
// reversible (JSON.parse(`"${inert(s)}"`) after escaping quotes gives s back). It is not
// injective where the text itself holds a backslash escape: a name holding the six characters
// `\u001b` reads like one holding ESC. The JSON output (--format json) has the exact value.

const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const UNSAFE_ALL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeUnit(c: string): string {
  // An astral format character (a tag, U+E0001) is two UTF-16 units: each is escaped, as JSON would.
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** `s` with every character that could act on a terminal or break a line shown as its escape. */
export function inert(s: string): string {
  if (!UNSAFE.test(s)) return s;
  return s.replace(UNSAFE_ALL, (c) => SHORT[c] ?? escapeUnit(c));
}

/** Each line of menuctl's own multi-line text made inert, its line breaks kept (error messages). */
export function inertLines(s: string): string {
  return s.split('\n').map(inert).join('\n');
}

// What JSON.stringify leaves raw that a terminal acts on: DEL and C1 (U+009B is CSI), format
// characters (bidi overrides and isolates) and the line and paragraph separators. It escapes C0,
// quotes and lone surrogates itself. JSON text outside strings is ASCII and stringify writes line
// breaks there only as `\n`, so each of these is inside a string, and its \uXXXX escape parses to
// the same value.
const JSON_UNSAFE = /[\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/gu;

/** JSON text (from JSON.stringify) with the same values, that a terminal showing it does not act on. */
export function inertJson(json: string): string {
  return json.replace(JSON_UNSAFE, escapeUnit);
}
