// Plain-data builders for planner tests: every field explicit, overridable per test.
import type {
  DesiredAction, DesiredApp, DesiredParser, DesiredState, LiveAction, LiveApp, LiveParser, LiveState,
  WorldOperator,
} from '../../src/model/types.js';

export const CATALOG: WorldOperator[] = [
  { id: 2172, name: 'Safaricom Ltd.', country_alpha2: 'ke', hnis: '63902' },
  { id: 2173, name: 'Airtel/Zain/Celtel Ltd.', country_alpha2: 'ke', hnis: '63903' },
  { id: 1803, name: 'MTN', country_alpha2: 'cm', hnis: '62401' },
  { id: 2001, name: 'MTN', country_alpha2: 'gh', hnis: '62001' },
  { id: 2341, name: 'MTN', country_alpha2: 'ng', hnis: '62130' },
];

export function liveAction(over: Partial<LiveAction> = {}): LiveAction {
  return {
    id: 'a1',
    name: 'Check balance',
    root_code: '*144#',
    transport_type: 'ussd',
    operators: ['Safaricom Ltd.'],
    steps: ['1', 'pin'],
    description: null,
    organization_id: 1,
    archived_at: null,
    updated_at: '2024-01-01T00:00:00Z',
    ...over,
  };
}

export function liveParser(over: Partial<LiveParser> = {}): LiveParser {
  return {
    id: 'p1',
    action_id: 'a1',
    category: 'balance',
    status: 'succeeded',
    target_type: 'ussd',
    sender: null,
    regex: 'Your balance is (?<balance>[\\d,.]+).*',
    user_message: '',
    archived_at: null,
    updated_at: '2024-01-01T00:00:00Z',
    ...over,
  };
}

export function liveApp(over: Partial<LiveApp> = {}): LiveApp {
  return {
    id: '7',
    name: 'Field agent',
    package_name: 'com.example.agent',
    webhook_url: 'https://hooks.example.com/agent',
    organization_id: 1,
    archived_at: null,
    updated_at: '2024-01-01T00:00:00Z',
    ...over,
  };
}

export function desiredParser(over: Partial<DesiredParser> = {}): DesiredParser {
  return {
    category: 'balance',
    status: 'succeeded',
    target_type: 'ussd',
    sender: null,
    regex: 'Your balance is (?<balance>[\\d,.]+).*',
    user_message: '',
    ...over,
  };
}

export function desiredAction(over: Partial<DesiredAction> = {}): DesiredAction {
  return {
    name: 'Check balance',
    root_code: '*144#',
    transport_type: 'ussd',
    operators: [{ ref: 2172 }],
    steps: [{ kind: 'press', value: '1' }, { kind: 'pin' }],
    parsers: [desiredParser()],
    tests: [],
    ...over,
  };
}

export function desiredApp(over: Partial<DesiredApp> = {}): DesiredApp {
  return { name: 'Field agent', package_name: 'com.example.agent', webhook_url: 'https://hooks.example.com/agent', ...over };
}

export function desired(over: Partial<DesiredState> = {}): DesiredState {
  return { actions: [], apps: [], files: ['menuctl.yaml'], ...over };
}

export function live(over: Partial<LiveState> = {}): LiveState {
  return {
    organization_id: 1,
    actions: [],
    parsers: [],
    apps: [],
    apps_listed: true,
    operators: CATALOG,
    warnings: [],
    ...over,
  };
}
