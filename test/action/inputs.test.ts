// The action's inputs as a runner passes them (INPUT_<NAME>), and extra-flags split like a shell
// would, without expanding anything.
import { describe, expect, it } from 'vitest';
import { InputError, readInputs, splitWords } from '../../src/action/inputs.js';

describe('splitWords', () => {
  it.each([
    ['', []],
    ['--prune', ['--prune']],
    ['  --prune   --force ', ['--prune', '--force']],
    [`--target 'action["Check balance"]'`, ['--target', 'action["Check balance"]']],
    [`--target "action[\\"A b\\"]"`, ['--target', 'action["A b"]']],
    ['--resend $HOME', ['--resend', '$HOME']],
    [`a\\ b`, ['a b']],
    [`''`, ['']],
  ])('%s', (text, words) => {
    expect(splitWords(text)).toEqual(words);
  });

  it('an unclosed quote is an error naming the input', () => {
    expect(() => splitWords(`--target 'x`)).toThrow(/extra-flags.*unclosed ' quote/);
  });
});

describe('readInputs', () => {
  it('reads hyphenated names and defaults', () => {
    const inputs = readInputs({ INPUT_COMMAND: 'plan', INPUT_PATHS: 'config/\nmore.yaml', 'INPUT_EXTRA-FLAGS': '--prune', 'INPUT_FAIL-ON-DRIFT': 'false' });
    expect(inputs).toMatchObject({ command: 'plan', paths: ['config/', 'more.yaml'], extraFlags: ['--prune'], comment: true, failOnDrift: false, environment: null, planFile: null });
  });

  it.each([
    ['secrets pull', 'secrets pull'],
    ['  secrets \n pull ', 'secrets pull'],
    ['secrets', 'secrets pull'],
  ])('command %j is %j', (given, command) => {
    expect(readInputs({ INPUT_COMMAND: given, 'INPUT_SECRETS-FILE': 'out.json' })).toMatchObject({ command, secretsFile: 'out.json' });
  });

  it.each([
    [{ INPUT_COMMAND: 'destroy' }, /command.*validate, test, plan, apply, drift, secrets pull/],
    [{ INPUT_COMMAND: 'secrets push' }, /command.*secrets pull \(got "secrets push"\)/],
    [{ INPUT_COMMAND: 'constructor' }, /command.*\(got "constructor"\)/],
    [{ INPUT_COMMAND: 'plan', INPUT_COMMENT: 'yes' }, /"comment" must be true or false/],
  ])('refuses %j', (env, message) => {
    expect(() => readInputs(env)).toThrow(InputError);
    expect(() => readInputs(env)).toThrow(message);
  });
});
