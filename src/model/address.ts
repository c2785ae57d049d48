// Resource addresses as in CONTRACT.md: action["Check balance"],
// action["Check balance"].parser["wrong-pin"], app["com.example.agent"].
// Names are JSON-quoted so any character (quotes, brackets) round-trips.

import { flat } from '../text/string-pool.js';
import type { ResourceType } from './types.js';

// Built flat (text/string-pool.ts): a plan keeps one address per resource, 600,000 at 100,000
// actions x 5, and as ropes they held every part.
export function actionAddress(name: string): string {
  return flat('action[', JSON.stringify(name), ']');
}

export function parserAddress(actionName: string, category: string): string {
  return flat('action[', JSON.stringify(actionName), '].parser[', JSON.stringify(category), ']');
}

export function appAddress(packageName: string): string {
  return flat('app[', JSON.stringify(packageName), ']');
}

export interface ParsedAddress {
  type: ResourceType;
  /** action name, or app package name */
  key: string;
  /** parser category, for parser addresses */
  category?: string;
}

const PART = /^(action|app|parser)\[("(?:[^"\\]|\\.)*")\]/;

/** Parses an address; returns null when it is not one. */
export function parseAddress(address: string): ParsedAddress | null {
  const first = PART.exec(address);
  if (!first || first[1] === 'parser') return null;
  let key: string;
  try {
    key = JSON.parse(first[2]!) as string;
  } catch {
    return null;
  }
  const rest = address.slice(first[0].length);
  if (rest === '') return { type: first[1] as 'action' | 'app', key };
  if (first[1] !== 'action' || !rest.startsWith('.')) return null;
  const second = PART.exec(rest.slice(1));
  if (!second || second[1] !== 'parser' || second[0].length !== rest.length - 1) return null;
  try {
    return { type: 'parser', key, category: JSON.parse(second[2]!) as string };
  } catch {
    return null;
  }
}
