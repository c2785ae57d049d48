// The runtime validator skips ajv's meta-schema check for speed; this is where it happens.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { AJV_OPTIONS, SCHEMA_PATH } from '../../src/config/schema.js';

describe('schemas/menuctl.strict.schema.json', () => {
  const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as object;

  it('is a valid JSON Schema 2020-12 document', () => {
    const ajv = new Ajv2020({ ...AJV_OPTIONS });
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
  });

  it('the meta-schema check would catch a broken schema', () => {
    const ajv = new Ajv2020({ ...AJV_OPTIONS });
    expect(ajv.validateSchema({ ...schema, type: 'mapping' })).toBe(false);
  });

  it('compiles under the runtime options with the meta-schema check on', () => {
    expect(() => new Ajv2020({ ...AJV_OPTIONS, validateSchema: true }).compile(schema)).not.toThrow();
  });
});

describe('schemas/menuctl.schema.json (the editor schema, generated)', () => {
  const editor = JSON.parse(readFileSync(SCHEMA_PATH.replace(/menuctl\.strict\.schema\.json$/, 'menuctl.schema.json'), 'utf8')) as object;

  it('is a valid JSON Schema 2020-12 document that compiles under the runtime options', () => {
    const ajv = new Ajv2020({ ...AJV_OPTIONS });
    expect(ajv.validateSchema(editor), JSON.stringify(ajv.errors)).toBe(true);
    expect(() => new Ajv2020({ ...AJV_OPTIONS, validateSchema: true }).compile(editor)).not.toThrow();
  });
});
