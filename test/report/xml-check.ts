// A small, strict XML well-formedness checker for the JUnit tests (no regex-based guessing):
// walks the text once, requires balanced, properly nested tags, quoted attributes, known
// entities only, no raw '<' or '&' in text, no control characters; returns the element tree.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const NAME = /^[A-Za-z_][\w.-]*$/;

function decode(raw: string, at: number): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    const code = ch.charCodeAt(0);
    if (code < 0x20 && ch !== '\n' && ch !== '\t' && ch !== '\r') throw new Error(`control character at ${at + i}`);
    if (ch === '<') throw new Error(`raw < at ${at + i}`);
    if (ch !== '&') { out += ch; continue; }
    const end = raw.indexOf(';', i);
    if (end < 0) throw new Error(`unterminated entity at ${at + i}`);
    const ent = raw.slice(i + 1, end);
    if (ent.startsWith('#')) out += String.fromCodePoint(Number(ent.startsWith('#x') ? `0x${ent.slice(2)}` : ent.slice(1)));
    else if (ent in ENTITIES) out += ENTITIES[ent];
    else throw new Error(`unknown entity &${ent}; at ${at + i}`);
    i = end;
  }
  return out;
}

function parseAttrs(src: string, at: number): Record<string, string> {
  const attrs: Record<string, string> = {};
  let i = 0;
  while (i < src.length) {
    while (i < src.length && /\s/.test(src[i]!)) i++;
    if (i >= src.length) break;
    const eq = src.indexOf('=', i);
    if (eq < 0) throw new Error(`attribute without value at ${at + i}`);
    const name = src.slice(i, eq).trim();
    if (!NAME.test(name) || name in attrs) throw new Error(`bad or repeated attribute ${name} at ${at + i}`);
    if (src[eq + 1] !== '"') throw new Error(`unquoted attribute ${name}`);
    const close = src.indexOf('"', eq + 2);
    if (close < 0) throw new Error(`unterminated attribute ${name}`);
    attrs[name] = decode(src.slice(eq + 2, close), at + eq + 2);
    i = close + 1;
    if (i < src.length && !/\s/.test(src[i]!)) throw new Error(`no space after attribute ${name}`);
  }
  return attrs;
}

export function checkXml(xml: string): XmlElement {
  let i = 0;
  if (xml.startsWith('<?xml')) i = xml.indexOf('?>') + 2;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = decode(xml.slice(i, lt < 0 ? xml.length : lt), i);
    if (stack.length > 0) stack.at(-1)!.text += text;
    else if (text.trim() !== '') throw new Error(`text outside the root at ${i}`);
    if (lt < 0) break;
    const gt = xml.indexOf('>', lt);
    if (gt < 0) throw new Error(`unterminated tag at ${lt}`);
    const tag = xml.slice(lt + 1, gt);
    if (tag.startsWith('/')) {
      const open = stack.pop();
      if (!open || open.name !== tag.slice(1)) throw new Error(`</${tag.slice(1)}> does not close <${open?.name}> at ${lt}`);
    } else {
      const selfClosing = tag.endsWith('/');
      const body = selfClosing ? tag.slice(0, -1) : tag;
      const sp = body.search(/\s|$/);
      const name = body.slice(0, sp);
      if (!NAME.test(name)) throw new Error(`bad tag name ${name} at ${lt}`);
      const el: XmlElement = { name, attrs: parseAttrs(body.slice(sp), lt + 1 + sp), children: [], text: '' };
      if (stack.length > 0) stack.at(-1)!.children.push(el);
      else if (root) throw new Error('second root element');
      else root = el;
      if (!selfClosing) stack.push(el);
    }
    i = gt + 1;
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack.at(-1)!.name}>`);
  if (!root) throw new Error('no root element');
  return root;
}
