// A live organization with the cases export must get right: tricky regexes, names with
// trailing spaces and unicode, ambiguous operator names, every step kind, sms parsers,
// archived resources, duplicate names, and apps with and without a webhook.
import { bundledCatalog } from '../../src/fs/catalog-file.js';
import type { LiveAction, LiveApp, LiveParser, LiveState } from '../../src/model/types.js';

const T = '2024-01-01T00:00:00Z';

function action(id: string, name: string, more: Partial<LiveAction> = {}): LiveAction {
  return {
    id, name, root_code: '*144#', transport_type: 'ussd', operators: ['Safaricom Ltd.'], steps: [],
    description: null, organization_id: 62, archived_at: null, updated_at: T, ...more,
  };
}

function parser(id: string, actionId: string, category: string, regex: string, more: Partial<LiveParser> = {}): LiveParser {
  return {
    id, action_id: actionId, category, status: 'succeeded', target_type: 'ussd', sender: null, regex,
    user_message: '', archived_at: null, updated_at: T, ...more,
  };
}

function app(id: string, name: string, pkg: string, more: Partial<LiveApp> = {}): LiveApp {
  return { id, name, package_name: pkg, webhook_url: null, organization_id: 62, archived_at: null, updated_at: T, ...more };
}

/** Regexes a YAML writer can get wrong: backslashes, quotes, #, leading *, braces, unicode. */
export const TRICKY_REGEXES = [
  String.raw`Your balance is (?<balance>[\d,.]+)\s*KES\.`,
  String.raw`It's "done": ref #(?<ref>\w+) \\ end`,
  String.raw`*wrong PIN.*`,
  String.raw`{"status": "(?<status>\w+)"}`,
  String.raw`.*Salio (?<salio>[\d]+) — Asante ✓.*`,
  String.raw`^\s+(?:a|b)\t# not a comment$`,
  `line one\nline two`,
  String.raw`- looks like a list item: [x], {y}, &anchor *alias !tag %dir @at` + '`',
];

export function sampleLive(): LiveState {
  const actions = [
    action('a1', 'Check balance', {
      root_code: '*144#',
      operators: ['Safaricom Ltd.', 'Airtel/Zain/Celtel Ltd.'],
      steps: ['1', 'phone', 'pin', '-', '*', '01', '#'],
    }),
    action('a2', 'Trailing space  ', { operators: ['MTN'], transport_type: 'stk' }),
    action('a3', 'Угода: купити ✓', { operators: ['MTN', 'MTN'], root_code: '*100*2#' }),
    action('a4', 'Retired', { archived_at: T }),
    action('a5', 'yes', { operators: ['Unlisted Telecom'] }),
    action('a6', 'Check balance', {}),
    action('a7', 'CHECK BALANCE!', { steps: ['amount'] }),
  ];
  const parsers = [
    ...TRICKY_REGEXES.map((re, i) => parser(`p${i}`, 'a1', `tricky-${i}`, re)),
    parser('p20', 'a1', 'wrong-pin', '.*wrong PIN.*', { status: 'failed', target_type: 'sms', sender: 'MPESA', user_message: 'Wrong PIN: {x}' }),
    parser('p21', 'a1', 'old', 'old', { archived_at: T }),
    parser('p22', 'a2', 'ok ', '^OK$', { status: 'pending', user_message: 'null' }),
    parser('p23', 'a4', 'gone', 'x'),
  ];
  const apps = [
    app('1', 'Field agent', 'com.example.agent', { webhook_url: 'https://hooks.example.com/agent?x=1#frag' }),
    app('2', 'No hook', 'com.example.nohook'),
    app('3', 'Old', 'com.example.old', { archived_at: T }),
  ];
  return { organization_id: 62, actions, parsers, apps, apps_listed: true, operators: bundledCatalog(), warnings: [] };
}
