import { describe, expect, it } from 'vitest';
import { fieldPath, shapeProblem } from '../../src/api/validate-response.js';
import { ApiError, pointerField } from '../../src/api/errors.js';

const action = (over: Record<string, unknown> = {}) => ({
  id: 'ab12cd34', type: 'custom_action',
  attributes: {
    name: 'A', root_code: '*1#', transport_type: 'ussd', organization_id: 1, archived_at: null,
    updated_at: 't', operators: [['Safaricom Ltd.', null]], steps: ['1'], ...over,
  },
});

describe('response shapes', () => {
  it('accepts a well-formed list', () => {
    expect(shapeProblem({ list: 'action' }, { data: [action(), action()], meta: { count: 2 } })).toBeNull();
  });

  it('names the element and field that is wrong', () => {
    const body = { data: [action(), action(), action(), action({ steps: 'x' })] };
    expect(shapeProblem({ list: 'action' }, body)).toBe('data[3].attributes.steps must be array');
  });

  it('names a missing field', () => {
    const a = action();
    delete (a.attributes as Record<string, unknown>).root_code;
    expect(shapeProblem({ one: 'action' }, { data: a })).toBe('data.attributes.root_code is missing');
  });

  it('names a wrong constant and an unknown enum value', () => {
    expect(shapeProblem({ one: 'action' }, { data: { ...action(), type: 'parser' } })).toBe('data.type must be "custom_action"');
    expect(shapeProblem({ one: 'action' }, { data: action({ transport_type: 'fax' }) }))
      .toBe('data.attributes.transport_type must be one of "ussd", "stk", "push", "variable_longstring"');
  });

  it('requires the token in a created app', () => {
    const app = { id: '1', type: 'app', attributes: { name: 'a', package_name: 'p', webhook_url: null, organization_id: 1, archived_at: null, updated_at: 't' } };
    expect(shapeProblem({ one: 'app' }, { data: app })).toBeNull();
    expect(shapeProblem({ one: 'app-created' }, { data: app })).toBe('data.attributes.token is missing');
  });

  it('checks bare bodies', () => {
    expect(shapeProblem({ body: 'archived' }, { id: 3, archived: true })).toBeNull();
    expect(shapeProblem({ body: 'archived' }, { id: 3 })).toBe('archived is missing');
    expect(shapeProblem({ body: 'authenticate' }, [])).toBe('body must be object');
  });

  it('turns JSON pointers into readable paths', () => {
    expect(fieldPath('/data/3/attributes/steps')).toBe('data[3].attributes.steps');
    expect(fieldPath('')).toBe('');
    expect(pointerField('/parser/regex')).toBe('regex');
    expect(pointerField('/custom_action/custom_steps_attributes/0/value')).toBe('custom_steps_attributes.0.value');
  });
});

describe('ApiError messages', () => {
  it('say the request, status, code and each field problem', () => {
    const err = new ApiError({
      method: 'PATCH', path: '/api/parsers/12', status: 422, outcome: 'failed', retryable: false,
      errors: [
        { code: 'validation', detail: 'is not a valid regular expression', pointer: '/parser/regex' },
        { code: 'validation', detail: 'must be one of succeeded, failed, pending', pointer: '/parser/status' },
      ],
    });
    expect(err.message).toBe(
      'PATCH /api/parsers/12: 422 validation: regex: is not a valid regular expression; status: must be one of succeeded, failed, pending',
    );
    expect(err).toMatchObject({ code: 'validation', detail: 'is not a valid regular expression', pointer: '/parser/regex' });
  });

  it('say when a write may have happened', () => {
    const err = new ApiError({ method: 'POST', path: '/api/actions', status: null, outcome: 'unknown', retryable: true, networkCode: 'UND_ERR_SOCKET' });
    expect(err.message).toMatch(/^POST \/api\/actions: no answer: connection closed by the server.*unknown/);
  });
});
