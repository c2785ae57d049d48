import { describe, expect, it } from 'vitest';
import {
  actionBody, appBody, appPatchBody, appSecrets, fromApiAction, fromApiApp, fromApiOperator, fromApiParser,
  parserBody, parserPatchBody, stepValue,
} from '../../src/model/payload.js';
import type { Step } from '../../src/model/types.js';
import type { ResolvedAction } from '../../src/plan/types.js';

const table: { step: Step; attrs: Record<string, string> }[] = [
  { step: { kind: 'press', value: '1' }, attrs: { is_param: 'false', convert_val_to_num: 'false', value: '1', description: '' } },
  {
    step: { kind: 'press', value: '2', expect: 'My account', description: 'open account' },
    attrs: { is_param: 'false', convert_val_to_num: 'false', value: '2', expected_text: 'My account', description: 'open account' },
  },
  { step: { kind: 'variable', name: 'phone' }, attrs: { is_param: 'true', convert_val_to_num: 'false', value: 'phone', description: '' } },
  { step: { kind: 'select', name: 'bundle', description: 'by text' }, attrs: { is_param: 'true', convert_val_to_num: 'true', value: 'bundle', description: 'by text' } },
  { step: { kind: 'pin' }, attrs: { is_param: 'false', convert_val_to_num: 'false', value: 'pin', description: '' } },
  { step: { kind: 'ok', description: 'confirm' }, attrs: { is_param: 'false', convert_val_to_num: 'false', value: '-', description: 'confirm' } },
];

const desired = (steps: Step[]): ResolvedAction => ({
  name: 'Check balance', root_code: '*144#', transport_type: 'ussd', operator_ids: [2172, 2173], steps,
});

describe('actionBody', () => {
  it.each(table)('encodes a $step.kind step with its flag pair', ({ step, attrs }) => {
    const body = actionBody(desired([step]));
    expect(body.custom_action.custom_steps_attributes).toEqual({ '0': { order: '0', ...attrs } });
  });

  it('keys steps "0".."n" in order, and every step value is a string', () => {
    const body = actionBody(desired(table.map((t) => t.step)));
    const steps = body.custom_action.custom_steps_attributes;
    expect(Object.keys(steps)).toEqual(['0', '1', '2', '3', '4', '5']);
    for (const [key, attrs] of Object.entries(steps)) {
      expect(attrs.order).toBe(key);
      for (const value of Object.values(attrs)) expect(typeof value).toBe('string');
    }
  });

  it('sends operator ids as strings and the action fields as given', () => {
    const body = actionBody(desired([]));
    expect(body).toEqual({
      custom_action: {
        name: 'Check balance', root_code: '*144#', transport_type: 'ussd',
        world_operator_ids: ['2172', '2173'], custom_steps_attributes: {},
      },
    });
  });

  it('sends expected_text only for press steps', () => {
    const steps = actionBody(desired(table.map((t) => t.step))).custom_action.custom_steps_attributes;
    const withExpected = Object.values(steps).filter((s) => 'expected_text' in s);
    expect(withExpected.map((s) => s.value)).toEqual(['2']);
  });
});

describe('stepValue', () => {
  it.each(table)('is what the API echoes for a $step.kind step', ({ step, attrs }) => {
    expect(stepValue(step)).toBe(attrs.value);
  });
});

describe('parser and app bodies', () => {
  const ussd = { category: 'balance', status: 'succeeded' as const, target_type: 'ussd' as const, sender: null, regex: 'a(?<x>b)', user_message: 'hi {x}' };

  it('creates a ussd parser with exactly the documented fields', () => {
    expect(parserBody('ab12cd34', ussd)).toEqual({
      parser: { action_id: 'ab12cd34', status: 'succeeded', category: 'balance', regex: 'a(?<x>b)', user_message: 'hi {x}' },
    });
  });

  it('adds target_type and sender for an sms parser', () => {
    const body = parserBody('ab12cd34', { ...ussd, target_type: 'sms', sender: 'MPESA' });
    expect(body.parser).toMatchObject({ target_type: 'sms', sender: 'MPESA' });
  });

  it('patches only the given fields, keeping an explicit null sender', () => {
    expect(parserPatchBody({ regex: 'x', sender: null, category: undefined })).toEqual({ parser: { regex: 'x', sender: null } });
  });

  it('omits a null webhook_url on create but sends it on patch to clear it', () => {
    expect(appBody({ name: 'Agent', package_name: 'com.x', webhook_url: null })).toEqual({ app: { name: 'Agent', package_name: 'com.x' } });
    expect(appBody({ name: 'Agent', package_name: 'com.x', webhook_url: 'https://h/x' }).app.webhook_url).toBe('https://h/x');
    expect(appPatchBody({ webhook_url: null })).toEqual({ app: { webhook_url: null } });
  });
});

describe('from API', () => {
  it('reduces an action to names of operators and step values', () => {
    const live = fromApiAction({
      id: 'ab12cd34', attributes: {
        public_id: 'ab12cd34', name: 'Check balance', description: null, root_code: '*144#', transport_type: 'ussd',
        organization_id: 62, archived_at: null, created_at: 't0', updated_at: 't1', transactions_count: 0,
        operators: [['Safaricom Ltd.', null], ['Vodafone/Mirsfone ', null]], steps: ['1', 'phone', 'pin', '-'],
      },
    });
    expect(live).toEqual({
      id: 'ab12cd34', name: 'Check balance', root_code: '*144#', transport_type: 'ussd',
      operators: ['Safaricom Ltd.', 'Vodafone/Mirsfone '], steps: ['1', 'phone', 'pin', '-'],
      description: null, organization_id: 62, archived_at: null, updated_at: 't1',
    });
  });

  it('round-trips an action: the steps the body sends are the steps the live action shows', () => {
    const spec = desired(table.map((t) => t.step));
    const sent = actionBody(spec).custom_action;
    const echoed = fromApiAction({
      id: 'x', attributes: {
        name: sent.name, root_code: sent.root_code, transport_type: sent.transport_type, organization_id: 1,
        archived_at: null, updated_at: 't', operators: [],
        steps: Object.values(sent.custom_steps_attributes).map((s) => s.value),
      },
    });
    expect(echoed.steps).toEqual(spec.steps.map(stepValue));
    expect(echoed.name).toBe(spec.name);
  });

  it('canonicalises a parser: empty sender is null, missing user_message is empty', () => {
    const live = fromApiParser({
      id: '12', attributes: {
        id: 12, status: 'failed', category: 'wrong-pin', target_type: 'ussd', sender: '', regex: '.*', user_message: null,
        archived_at: '2024-01-01T00:00:00Z', updated_at: 't', custom_action_public_id: 'ab12cd34',
      },
    });
    expect(live).toEqual({
      id: '12', action_id: 'ab12cd34', category: 'wrong-pin', status: 'failed', target_type: 'ussd', sender: null,
      regex: '.*', user_message: '', archived_at: '2024-01-01T00:00:00Z', updated_at: 't',
    });
  });

  const appJson = {
    id: '7', attributes: {
      id: 7, name: 'Agent', package_name: 'com.x', token: 'a'.repeat(32), webhook_url: 'https://h/x',
      webhook_secret: 'b'.repeat(32), organization_id: 1, archived_at: null, updated_at: 't', icon: 'noimg.svg',
    },
  };

  it('strips token and webhook_secret from a live app', () => {
    const live = fromApiApp(appJson);
    expect(live).toEqual({ id: '7', name: 'Agent', package_name: 'com.x', webhook_url: 'https://h/x', organization_id: 1, archived_at: null, updated_at: 't' });
    expect(JSON.stringify(live)).not.toContain('aaaa');
    expect(JSON.stringify(live)).not.toContain('bbbb');
  });

  it('reads secrets only through appSecrets', () => {
    expect(appSecrets(appJson)).toEqual({ token: 'a'.repeat(32), webhook_secret: 'b'.repeat(32) });
    expect(appSecrets({ id: 8, attributes: { token: 'c', webhook_secret: null } })).toEqual({ token: 'c', webhook_secret: null });
  });

  it('reads an operator with a numeric id and its name byte for byte', () => {
    expect(fromApiOperator({ id: '1923', attributes: { name: 'Vodafone/Mirsfone ', country_alpha2: 'eg', hnis: '60202' } }))
      .toEqual({ id: 1923, name: 'Vodafone/Mirsfone ', country_alpha2: 'eg', hnis: '60202' });
  });
});
