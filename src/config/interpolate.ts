// ${VAR} interpolation of string scalars from the environment.
// Rules (docs/config.md "Interpolation"): `${NAME}` with NAME = [A-Za-z_][A-Za-z0-9_]* is replaced
// by the variable's value (an empty value counts as set); `${NAME:-default}` uses `default` when
// NAME is unset (as in the shell, but an empty value still counts as set); `$${` writes a literal
// `${`; any other `${` is an error, so a typo such as `${FOO` never reaches the API silently.

export interface InterpolationIssue {
  code: 'env.unset' | 'env.syntax' | 'env.credential';
  /** Offset in the (decoded) string where the reference starts. */
  index: number;
  /** The reference as written, e.g. `${AGENT_URL}`. */
  text: string;
  name?: string;
  message: string;
}

export interface Interpolated {
  value: string;
  issues: InterpolationIssue[];
}

const REF = /\$\$\{|\$\{([^}]*)(\}?)/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * menuctl's own credential variables (MENUCTL_TOKEN, MENUCTL_EMAIL, MENUCTL_PASSWORD and their
 * per-environment MENUCTL_TOKEN_<NAME> forms). Never interpolated: the value would land in the
 * desired state, and from there in plans, PR comments and saved plan files.
 */
export const CREDENTIAL_VARIABLE = /^MENUCTL_(?:TOKEN|EMAIL|PASSWORD)(?:_[A-Za-z0-9_]*)?$/;

export function interpolate(input: string, env: Record<string, string | undefined>): Interpolated {
  if (!input.includes('${')) return { value: input, issues: [] };
  const issues: InterpolationIssue[] = [];
  const value = input.replace(REF, (match: string, name: string | undefined, close: string | undefined, index: number) => {
    if (match === '$${') return '${';
    if (!close) {
      issues.push({ code: 'env.syntax', index, text: match,
        message: '`${` is not closed. Write `${NAME}`, or `$${` for a literal `${`.' });
      return match;
    }
    const dash = name!.indexOf(':-');
    const fallback = dash === -1 ? undefined : name!.slice(dash + 2);
    if (dash !== -1) name = name!.slice(0, dash);
    if (!NAME.test(name!)) {
      issues.push({ code: 'env.syntax', index, text: match,
        message: `\`${match}\` is not a valid variable reference: names are letters, digits and _ (not starting with a digit). Write \`$\${\` for a literal \`\${\`.` });
      return match;
    }
    if (CREDENTIAL_VARIABLE.test(name!)) {
      issues.push({ code: 'env.credential', index, text: match, name,
        message: `\`${match}\` would copy a credential into the config, and from there into plans and pull-request comments. ` +
          `menuctl reads ${name} itself when it connects: remove the reference.` });
      return match;
    }
    const v = env[name!] ?? fallback;
    if (v === undefined) {
      issues.push({ code: 'env.unset', index, text: match, name,
        message: `environment variable ${name} is not set. Set it (e.g. \`export ${name}=...\`) or remove the reference.` });
      return match;
    }
    return v;
  });
  return { value, issues };
}
