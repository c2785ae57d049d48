// A live parser held as the config's parser it equals, plus the three values only the API knows.
//
// Nearly every parser of a big organization reads, when it arrives, exactly as its config says.
// Held as parsed, each was an object of its own with its own copies of the regex, category and
// message (docs/benchmarks.md "memory"). This one keeps the live id, the owning action's id and
// updated_at, and reads the rest from the config's parser, which the run holds anyway. It is made
// only when every field it derives is the very value that arrived (SettledLiveParser.from), so it
// reads, compares, fingerprints and serialises as the object it replaces: nothing that reads a
// LiveParser can tell them apart, except by `instanceof`.

import type { LiveValues } from './kinds/fields.js';
import { PARSER_FIELDS, PARSER_TABLE } from './kinds/parser-fields.js';
import type { DesiredParser, LiveParser } from './types.js';

/** The fields of a LiveParser, in the order the client builds it (model/kinds/parser.ts fromApiParser). */
const LIVE_PARSER_KEYS: readonly (keyof LiveParser)[] = ['id', 'action_id', ...PARSER_TABLE.names, 'archived_at', 'updated_at'];

// The table's fields, read from the config's parser as resolved (a getter on the prototype for
// each, defined below: one shared function per field, nothing per object).
export interface SettledLiveParser extends Readonly<LiveValues<typeof PARSER_FIELDS>> {}

export class SettledLiveParser {
  private constructor(
    readonly id: string,
    readonly action_id: string,
    /** The config's parser this live one equals. */
    readonly config: DesiredParser,
    readonly updated_at: string,
  ) {}

  /**
   * The settled form of `live`, the live parser `config` describes; null unless every field it
   * would derive is strictly equal to the one that arrived (an active parser with no other fields).
   */
  static from(live: LiveParser, config: DesiredParser, actionId: string): SettledLiveParser | null {
    if (live.archived_at !== null || live.action_id !== actionId) return null;
    // Exactly these fields, by name: a field it does not know would be lost from its JSON.
    const keys = Object.keys(live);
    if (keys.length !== LIVE_PARSER_KEYS.length || !keys.every((k) => (LIVE_PARSER_KEYS as readonly string[]).includes(k))) return null;
    const settled = new SettledLiveParser(live.id, actionId, config, live.updated_at);
    for (const k of LIVE_PARSER_KEYS) if (settled[k] !== live[k]) return null;
    return settled;
  }

  get archived_at(): null {
    return null;
  }

  /** The plain object the client made, key for key (JSON of a settled parser is JSON of the one it replaced). */
  toJSON(): LiveParser {
    const out: Record<string, unknown> = {};
    for (const k of LIVE_PARSER_KEYS) out[k] = this[k];
    return out as unknown as LiveParser;
  }
}

for (const name of PARSER_TABLE.names) {
  const resolved = PARSER_TABLE.resolver(name);
  Object.defineProperty(SettledLiveParser.prototype, name, {
    get(this: SettledLiveParser) {
      return resolved(this.config);
    },
    enumerable: false,
    configurable: true,
  });
}
