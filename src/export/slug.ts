// File names for the directory layout: one file per action, named after it, safe on every
// file system (ASCII, lower case so case-insensitive systems cannot collide, no reserved
// device names), unique within the export.

const RESERVED = new Set(['apps', 'con', 'prn', 'aux', 'nul', ...[1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((n) => [`com${n}`, `lpt${n}`])]);
const MAX = 60;

export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX)
    .replace(/-+$/, '');
}

/** Gives each (name, id) a unique `<slug>.yaml`, falling back to the id for names with no ASCII. */
export function fileNamer(): (name: string, id: string) => string {
  const taken = new Set<string>();
  return (name, id) => {
    let base = slugify(name);
    if (base === '') base = `action-${slugify(id) || 'x'}`;
    if (RESERVED.has(base)) base = `action-${base}`;
    let candidate = base;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}-${n}`;
    taken.add(candidate);
    return `${candidate}.yaml`;
  };
}
