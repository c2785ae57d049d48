// The editor-facing config schema (schemas/menuctl.schema.json, the file a config's
// `# yaml-language-server: $schema=` line names), derived from the strict one
// (schemas/menuctl.strict.schema.json, the single hand-edited source, which `validate` runs).
//
// Why two: menuctl interpolates `${VAR}` and `${VAR:-default}` in every string value *before* the
// schema check (src/config/interpolate.ts), so `validate` never sees a reference. An editor sees
// the file as written, and the strict schema flags `webhook_url: ${HOOK:-https://...}` (pattern)
// or `transport_type: ${T}` (enum) although validate accepts them. So every string constraint that
// a reference could not satisfy as written (pattern, enum, const) becomes
//   anyOf: [ <the strict constraint>, <a reference form> ]
// where the reference form is:
//   - the whole value one reference, `${NAME}`, or `${NAME:-DEFAULT}` with DEFAULT meeting the
//     strict constraint (an enum/const value, or the anchored pattern's body), so a default is
//     checked as strictly as a literal;
//   - for a pattern field, a value with a reference among literal text (`https://${HOST}/hook`),
//     which the editor cannot check further: validate checks it after interpolation.
// A literal value (no `${`) matches the strict branch or nothing, so it is checked exactly as before.

/** A variable name, as interpolate.ts reads it. */
const NAME = '[A-Za-z_][A-Za-z0-9_]*';
/** One reference anywhere in a value (its default may not contain `}`, as in interpolate.ts). */
const ANY_REF = `\\$\\{${NAME}(?::-[^}]*)?\\}`;

const escapeRegex = (s) => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** `${NAME}` or `${NAME:-DEFAULT}` where DEFAULT matches `body` (a regex without anchors). */
function wholeReference(body) {
  return `^\\$\\{${NAME}(?::-(?:${body}))?\\}$`;
}

function allowsString(schema) {
  const t = schema.type;
  if (t === undefined) return true;
  return t === 'string' || (Array.isArray(t) && t.includes('string'));
}

/** The reference form for one schema node, or null when a reference cannot break it. */
function referenceForm(schema) {
  const strings = (values) => values.filter((v) => typeof v === 'string');
  if (Array.isArray(schema.enum) || typeof schema.const === 'string') {
    const values = strings(schema.enum ?? [schema.const]);
    if (values.length === 0) return null;
    return { type: 'string', pattern: wholeReference(values.map(escapeRegex).join('|')) };
  }
  if (typeof schema.pattern === 'string' && allowsString(schema)) {
    const p = schema.pattern;
    const anchored = p.startsWith('^') && p.endsWith('$') && !p.endsWith('\\$');
    // An unanchored-at-the-end pattern (`^https?://`) is a prefix check: the default must start so.
    const body = anchored ? p.slice(1, -1) : p.startsWith('^') ? `${p.slice(1)}[^}]*` : `[^}]*(?:${p})[^}]*`;
    return {
      type: 'string',
      anyOf: [{ pattern: wholeReference(body) }, { pattern: `^(?!${ANY_REF}$).*${ANY_REF}` }],
    };
  }
  return null;
}

/** Keys of a schema node that hold one subschema, a list of them, or a map of them. */
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'];
const MANY = ['oneOf', 'anyOf', 'allOf', 'prefixItems'];
const MAP = ['properties', '$defs', 'patternProperties', 'dependentSchemas'];
/** Annotations kept on the wrapper, so hover and completion read as before. */
const ANNOTATIONS = ['description', 'title', 'default', 'examples', 'markdownDescription'];

function transform(schema) {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out = { ...schema };
  for (const k of ONE) if (k in out) out[k] = transform(out[k]);
  for (const k of MANY) if (Array.isArray(out[k])) out[k] = out[k].map(transform);
  for (const k of MAP) {
    if (out[k] && typeof out[k] === 'object') out[k] = Object.fromEntries(Object.entries(out[k]).map(([n, s]) => [n, transform(s)]));
  }
  const ref = referenceForm(out);
  if (!ref) return out;
  const strict = { ...out };
  const wrapper = {};
  for (const a of ANNOTATIONS) if (a in strict) wrapper[a] = strict[a];
  // Completion still offers the enum's values, from the strict branch.
  return { ...wrapper, anyOf: [strict, { description: 'A ${VAR} or ${VAR:-default} reference, interpolated before menuctl validates the value.', ...ref }] };
}

/**
 * The editor schema for a strict config schema: the same document with each string constraint
 * widened to accept a `${VAR}` reference (see the header). Pure; scripts/gen-validators.mjs writes it.
 */
export function editorSchema(strict) {
  const { $id, ...rest } = transform(strict);
  return {
    $comment: 'Generated from schemas/menuctl.strict.schema.json by scripts/gen-validators.mjs: edit that file. This one also accepts ${VAR} references where menuctl interpolates them (before validating), so editors show no false errors.',
    $id: $id.replace(/menuctl\.strict\.schema\.json$/, 'menuctl.schema.json'),
    ...rest,
  };
}
