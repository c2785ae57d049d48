// ${VAR} interpolation of string scalars.
// Rules (docs/config.md "Interpolation"): `${NAME}` with NAME = [A-Za-z_][A-Za-z0-9_]* is replaced
// by the variable's value (an empty value counts as set); `${NAME:-default}` uses `default` when
// NAME is unset (as in the shell, but an empty value still counts as set); `$${` writes a literal
// `${`; any other `${` is an error, so a typo such as `${FOO` never reaches the API silently.
//
// What a name may read: the selected environment's `variables:`, then the process
// variable MENUCTL_VAR_<NAME>, then the written default. Never the process variable NAME itself:
// a pull request can edit the config, and the plan it produces becomes a pull-request comment, so
// `${GITHUB_TOKEN}` would publish the CI's secrets. Nothing written in the config can widen this
// (the attacker writes the config); only whoever sets the job's environment decides, by prefixing,
// as TF_VAR_ does for Terraform and DECK_ for decK.

export interface InterpolationIssue {
  code: 'env.unset' | 'env.undeclared' | 'env.syntax' | 'env.credential';
  /** Offset in the (decoded) string where the reference starts. */
  index: number;
  /** The reference as written, e.g. `${AGENT_URL}`. */
  text: string;
  name?: string;
  message: string;
  /** Only env.undeclared when a written default applied instead; every other issue is an error. */
  severity?: 'warning';
}

export interface Interpolated {
  value: string;
  issues: InterpolationIssue[];
}

const REF = /\$\$\{|\$\{([^}]*)(\}?)/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The prefix of the process variables `${NAME}` reads: MENUCTL_VAR_NAME. */
export const VARIABLE_PREFIX = 'MENUCTL_VAR_';

/**
 * menuctl's own credential variables (MENUCTL_TOKEN, MENUCTL_EMAIL, MENUCTL_PASSWORD and their
 * per-environment MENUCTL_TOKEN_<NAME> forms, and the reference server's MENUCTL_JWT_SECRET).
 * Never interpolated, even when an environment's variables define one: the value would land in
 * the desired state, and from there in plans, PR comments and saved plan files.
 */
export const CREDENTIAL_VARIABLE = /^MENUCTL_(?:(?:TOKEN|EMAIL|PASSWORD)(?:_[A-Za-z0-9_]*)?|JWT_SECRET)$/;

/** The process variable `${name}` reads: MENUCTL_VAR_<name>, or `name` itself when written with the prefix. */
export const processVariable = (name: string): string =>
  name.startsWith(VARIABLE_PREFIX) && name.length > VARIABLE_PREFIX.length ? name : `${VARIABLE_PREFIX}${name}`;

/**
 * What `${NAME}` can read. Built from the process environment, which it reads only through
 * MENUCTL_VAR_ (see the header), and the selected environment's `variables:`.
 */
export class VariableScope {
  constructor(
    private readonly processEnv: Record<string, string | undefined>,
    private readonly config: Readonly<Record<string, string>> = {},
  ) {}

  /** NAME's value: the environment's `variables:` entry, then MENUCTL_VAR_NAME; undefined when neither. */
  get(name: string): string | undefined {
    return Object.hasOwn(this.config, name) ? this.config[name] : this.processEnv[processVariable(name)];
  }

  /**
   * Whether the unprefixed process variable NAME is set: one bit, for a hint to a user who
   * exported NAME rather than MENUCTL_VAR_NAME. Never its value.
   */
  unreadable(name: string): boolean {
    return processVariable(name) !== name && this.processEnv[name] !== undefined;
  }
}

export function interpolate(input: string, scope: VariableScope): Interpolated {
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
    const v = scope.get(name!);
    if (v !== undefined) return v;
    if (fallback !== undefined) {
      // Someone who exported NAME (the form before environments' variables) would otherwise get the placeholder
      // planned, silently.
      if (scope.unreadable(name!)) issues.push(defaultUsed(name!, index, match));
      return fallback;
    }
    issues.push(unresolved(name!, index, match, scope.unreadable(name!)));
    return match;
  });
  return { value, issues };
}

function defaultUsed(name: string, index: number, text: string): InterpolationIssue {
  return { code: 'env.undeclared', severity: 'warning', index, text, name,
    message: `\`\${${name}:-...}\` used its default: the process environment sets ${name}, but menuctl reads process variables only with the ${VARIABLE_PREFIX} prefix. ` +
      `To use it, export ${processVariable(name)}=... (${name} itself is not read, so a config cannot copy CI secrets such as GITHUB_TOKEN into a plan).` };
}

/** Names the variable and where a value could come from; never any value. */
function unresolved(name: string, index: number, text: string, unreadable: boolean): InterpolationIssue {
  const prefixed = processVariable(name);
  if (unreadable) {
    return { code: 'env.undeclared', index, text, name,
      message: `variable ${name} has no value. The process environment sets ${name}, but menuctl reads process variables only with the ${VARIABLE_PREFIX} prefix: ` +
        `export ${prefixed}=... (${name} itself is not read, so a config cannot copy CI secrets such as GITHUB_TOKEN into a plan).` };
  }
  return { code: 'env.unset', index, text, name,
    message: `variable ${name} is not set. Set it (\`export ${prefixed}=...\`; menuctl reads process variables only with the ${VARIABLE_PREFIX} prefix), or remove the reference.` };
}
