// What the class parser (java-class.ts) and the property parser (java-property.ts) need of the
// pattern parser (java-parse.ts): its own file, so neither of the two imports the other for it.
import type { Source } from './java-quote.js';

export interface ParserState {
  k: number;
  readonly src: Source;
  readonly flags: { i: boolean };
  peek(off?: number): number;
  error(description: string, k?: number): never;
  warn(code: string, message: string, k?: number): void;
}
