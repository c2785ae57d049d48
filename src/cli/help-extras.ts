// What `menuctl COMMAND --help` adds after the flags: the environment variables the command reads
// (credentials never have a flag, so without this a newcomer cannot find them) and an example to
// start from. One table, so a command's help and docs/cli.md cannot disagree.

import type { Command } from 'commander';

type Variable = [name: string, meaning: string];

const API: Variable[] = [
  ['MENUCTL_API_URL', 'base URL of the API (or --api-url; or the environment\'s api_url)'],
  ['MENUCTL_TOKEN', 'a JWT, sent as the Authorization header (never a flag: it would land in shell history)'],
  ['MENUCTL_EMAIL, MENUCTL_PASSWORD', 'or log in with POST /api/authenticate instead of a token'],
  ['MENUCTL_TOKEN_<ENV>', 'the token of one environment (--env staging: MENUCTL_TOKEN_STAGING), before MENUCTL_TOKEN'],
  ['MENUCTL_ORGANIZATION_ID', 'refuse to act unless the credentials belong to this organization (or --organization)'],
  ['MENUCTL_ENV', 'the environment to act on, when the config defines environments (or --env)'],
];
const STATE: Variable = ['MENUCTL_STATE', 'where the applied-state record lives (or --state URL; default file:menuctl.lock beside the config)'];
const CONFIG_VARS: Variable = ['${VAR} in the config', 'each variable the config references, read from the environment (after an environment\'s own variables:)'];
const CI: Variable = ['GITHUB_ACTIONS', 'true: also print ::error annotations for GitHub'];

interface Extra { env: Variable[]; examples: string[] }

const EXTRAS: Record<string, Extra> = {
  validate: { env: [CONFIG_VARS, CI], examples: ['menuctl validate examples/', 'menuctl validate menuctl.yaml --format json'] },
  test: { env: [CONFIG_VARS], examples: ['menuctl test examples/', 'menuctl test menus/ --transcript', 'menuctl test menus/ --quiet   # failures and the summary only'] },
  analyze: { env: [CONFIG_VARS], examples: ['menuctl analyze examples/ --strict'] },
  plan: {
    env: [...API, STATE, CONFIG_VARS],
    examples: [
      'export MENUCTL_API_URL=https://api.example.com MENUCTL_TOKEN=eyJhbGciOi...',
      'menuctl plan menus/',
      'menuctl plan menus/ --out plan.json   # then: menuctl apply menus/ --plan plan.json',
    ],
  },
  apply: {
    env: [...API, STATE, CONFIG_VARS],
    examples: [
      'export MENUCTL_API_URL=https://api.example.com MENUCTL_TOKEN=eyJhbGciOi...',
      'menuctl apply menus/            # plan, ask, apply',
      'menuctl apply menus/ --plan plan.json --yes   # carry out a saved plan in CI',
    ],
  },
  drift: {
    env: [...API, STATE, CONFIG_VARS],
    examples: ['MENUCTL_API_URL=https://api.example.com MENUCTL_TOKEN=eyJhbGciOi... menuctl drift menus/ --format markdown'],
  },
  'diff-env': { env: [...API.filter(([n]) => n !== 'MENUCTL_ENV'), CONFIG_VARS], examples: ['menuctl diff-env staging production menus/'] },
  export: {
    env: [...API, STATE],
    examples: ['MENUCTL_API_URL=https://api.example.com MENUCTL_TOKEN=eyJhbGciOi... menuctl export --out menus/'],
  },
  operators: {
    env: [['MENUCTL_API_URL', 'read the list from this API (else the catalog shipped with menuctl)'], ['MENUCTL_TOKEN', 'sent when reading from an API']],
    examples: ['menuctl operators --country KE'],
  },
  state: { env: [STATE, ...API], examples: ['menuctl state list', 'menuctl state show \'action["Check balance"]\''] },
  import: {
    env: [...API, STATE, CONFIG_VARS],
    examples: ['menuctl import \'app["com.example.wallet"]\' 42   # after an app create whose answer was lost'],
  },
  'secrets pull': {
    env: [...API, STATE],
    examples: ['menuctl secrets pull config/ --out "$RUNNER_TEMP/app-secrets.json"   # in CI, after apply'],
  },
  serve: {
    env: [['MENUCTL_JWT_SECRET', 'HS256 secret for tokens (or --jwt-secret; else one is generated beside the database)']],
    examples: ['menuctl serve --port 8080 --data ./menuctl-data.sqlite --user ops@example.com:secret', 'menuctl serve --spec-only   # only what the real service offers'],
  },
  token: {
    env: [['MENUCTL_JWT_SECRET', 'the secret the server signs with (or --jwt-secret, or --data FILE\'s stored secret)']],
    examples: ['export MENUCTL_TOKEN=$(menuctl token --org 1 --data ./menuctl-data.sqlite)'],
  },
  demo: { env: [], examples: ['npm run demo', 'menuctl demo --full   # also against the full reference server, extensions on'] },
  'sessions import': {
    env: [CONFIG_VARS],
    examples: ['menuctl sessions import webhook-body.json menuctl.yaml > session.yaml'],
  },
};

function render(extra: Extra): string {
  const lines: string[] = [];
  if (extra.env.length > 0) {
    const width = Math.max(...extra.env.map(([n]) => n.length));
    lines.push('', 'Environment:', ...extra.env.map(([n, m]) => `  ${n.padEnd(width)}  ${m}`));
  }
  if (extra.examples.length > 0) lines.push('', 'Examples:', ...extra.examples.map((e) => `  $ ${e}`));
  return lines.join('\n');
}

/** Adds each registered command's environment and examples to its --help. */
export function addHelpExtras(program: Command): void {
  const visit = (cmd: Command, path: string) => {
    const extra = EXTRAS[path];
    if (extra) cmd.addHelpText('after', render(extra));
    for (const sub of cmd.commands) visit(sub, `${path} ${sub.name()}`);
  };
  for (const cmd of program.commands) visit(cmd, cmd.name());
}

/** The commands given an extra, for a test that every command has one. */
export const HELP_EXTRA_COMMANDS = Object.keys(EXTRAS);
