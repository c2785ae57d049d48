// A file's text that can be kept compressed. Once a config is loaded, its text is needed only to
// locate a finding or show its source line, which a clean run never does, and a big config's
// texts were a large part of a plan's heap. YAML compresses well and raw deflate at level 1 is
// cheap either way, so a big config's text is packed after the load and inflated
// again only while positions are being worked out.

import { deflateRawSync, inflateRawSync } from 'node:zlib';

export class PackedText {
  private plain: string | null;
  private packed: Buffer | null = null;
  /** The text's length, known without inflating it. */
  readonly length: number;

  constructor(text: string) {
    this.plain = text;
    this.length = text.length;
  }

  /** The text (inflated again if packed; kept until release()). */
  get text(): string {
    if (this.plain === null) this.plain = inflateRawSync(this.packed!).toString('utf8');
    return this.plain;
  }

  /** Whether the text is held compressed (it may also be inflated at the moment). */
  get isPacked(): boolean {
    return this.packed !== null;
  }

  /** Compresses the text (once) and drops the plain copy. */
  pack(): void {
    if (this.packed === null) this.packed = deflateRawSync(Buffer.from(this.text, 'utf8'), { level: 1 });
    this.plain = null;
  }

  /** Drops the plain copy of a packed text (the next read inflates it again); no-op otherwise. */
  release(): void {
    if (this.packed !== null) this.plain = null;
  }
}
