// The kind sections of the schemas, made from the kinds' field tables (src/model/kinds/*-fields.ts):
//   schemas/plan.schema.json     $defs.actionDesired, parserDesired, appDesired (a saved plan's `desired`), whole
//   schemas/api/<kind>.json      attributes: each table field's property and its place in `required`
// The rest of those files (the plan's other keys, the attributes the server keeps of its own) is
// written by hand. scripts/gen-validators.mjs runs this first and compiles the validators from
// the result; `--check` compares instead of writing.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { ROOT } from './lib/bundle.mjs';

/** The three tables, loaded from the TypeScript sources (bundled in memory: no build needed). */
export async function loadTables() {
  const entry = [
    "export { ACTION_TABLE } from './src/model/kinds/action-fields.ts';",
    "export { PARSER_TABLE } from './src/model/kinds/parser-fields.ts';",
    "export { APP_TABLE } from './src/model/kinds/app-fields.ts';",
  ].join('\n');
  const out = await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: 'ts', sourcefile: 'tables.ts' },
    bundle: true, platform: 'node', target: 'node20', format: 'esm', write: false, logLevel: 'error',
  });
  const mod = await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
  return { action: mod.ACTION_TABLE, parser: mod.PARSER_TABLE, app: mod.APP_TABLE };
}

const KINDS = ['action', 'parser', 'app'];

/** The schema files' texts with their kind sections made from the tables: [url, text][]. */
export async function kindSchemaFiles() {
  const tables = await loadTables();
  const files = [];
  const planUrl = new URL('../schemas/plan.schema.json', import.meta.url);
  const plan = JSON.parse(readFileSync(planUrl, 'utf8'));
  for (const kind of KINDS) {
    const { required, properties } = tables[kind].planSchema();
    plan.$defs[`${kind}Desired`] = {
      $comment: `Made from src/model/kinds/${kind}-fields.ts by scripts/kind-schemas.mjs: edit the table, not this.`,
      type: 'object', additionalProperties: false, required, properties,
    };
  }
  files.push([planUrl, formatJson(plan)]);
  for (const kind of KINDS) {
    const url = new URL(`../schemas/api/${kind}.json`, import.meta.url);
    const schema = JSON.parse(readFileSync(url, 'utf8'));
    const attributes = schema.properties.attributes;
    const { required, properties } = tables[kind].answerSchema();
    const names = tables[kind].names;
    // The table's fields first, in its order; then the server's own attributes as written.
    const others = Object.entries(attributes.properties).filter(([k]) => !names.includes(k));
    attributes.properties = Object.fromEntries([...Object.entries(properties), ...others]);
    attributes.required = [...required, ...attributes.required.filter((k) => !names.includes(k))];
    attributes.$comment = `The properties and required entries of ${names.join(', ')} are made from src/model/kinds/${kind}-fields.ts by scripts/kind-schemas.mjs; the others are written here.`;
    files.push([url, formatJson(schema)]);
  }
  return files;
}

/** JSON as these files write it: a value on one line when it fits in 200 columns (a list of scalars always), else one member a line. */
export function formatJson(value) {
  return `${write(value, 0)}\n`;
}

/** Members whose value is written one member a line: the schema's lists of properties and definitions. */
const EXPANDED = new Set(['properties', '$defs']);

/** `column`: where the value starts on its line; `indent`: its line's indentation; `key`: the member's name. */
function write(value, indent, column = indent, key = '') {
  const inline = inlineText(value);
  const scalars = Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object');
  const expand = indent === 0 || (EXPANDED.has(key) && !Object.values(value).every((v) => typeof v === 'boolean'));
  if (value === null || typeof value !== 'object' || scalars || (!expand && column + inline.length <= 230)) return inline;
  const pad = ' '.repeat(indent + 2);
  if (Array.isArray(value)) return `[\n${value.map((v) => pad + write(v, indent + 2)).join(',\n')}\n${' '.repeat(indent)}]`;
  const members = Object.entries(value).map(([k, v]) => {
    const key = `${JSON.stringify(k)}: `;
    return pad + key + write(v, indent + 2, indent + 2 + key.length, k);
  });
  return `{\n${members.join(',\n')}\n${' '.repeat(indent)}}`;
}

function inlineText(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(inlineText).join(', ')}]`;
  const members = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${inlineText(v)}`);
  return members.length === 0 ? '{}' : `{ ${members.join(', ')} }`;
}
