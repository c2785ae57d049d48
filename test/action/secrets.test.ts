// What the action registers with the runner as secret after `secrets pull`: every token and
// webhook secret in the file, in either format, and never an id or a key; and only under a runner.
import { describe, expect, it } from 'vitest';
import { secretValues } from '../../src/action/secrets.js';
import { addMask } from '../../src/action/runner.js';

describe('secretValues', () => {
  it('json, flat and in environment sections: tokens and webhook secrets, not ids', () => {
    const flat = JSON.stringify({ 'app["a"]': { id: '11', token: 'tok-a', webhook_secret: 'wh-a' }, 'app["b"]': { id: '12', token: 'tok-b', webhook_secret: null } });
    expect(secretValues(flat).sort()).toEqual(['tok-a', 'tok-b', 'wh-a']);
    const sections = JSON.stringify({ 'environment staging': { 'app["a"]': { id: '3', token: 'tok-s', webhook_secret: 'wh-s' } }, 'environment production': { 'app["a"]': { id: '3', token: 'tok-p', webhook_secret: null } } });
    expect(secretValues(sections).sort()).toEqual(['tok-p', 'tok-s', 'wh-s']);
  });

  it('env lines: the _TOKEN and _WEBHOOK_SECRET values, not the _ID', () => {
    const text = 'MENUCTL_APP_COM_A_ID=11\nMENUCTL_APP_COM_A_TOKEN=tok-a\nMENUCTL_APP_COM_A_WEBHOOK_SECRET=wh-a\n';
    expect(secretValues(text).sort()).toEqual(['tok-a', 'wh-a']);
  });
});

describe('addMask', () => {
  it('writes ::add-mask:: escaped as a workflow command, and nothing outside a runner (it would print the value)', () => {
    expect(addMask({ GITHUB_ACTIONS: 'true' }, 'a%b\nc')).toBe('::add-mask::a%25b%0Ac\n');
    expect(addMask({}, 'secret-value')).toBe('');
    expect(addMask({ GITHUB_ACTIONS: 'true' }, '')).toBe('');
  });
});
