// Named groups declared in a regex, `(?<name>...)`, skipping escapes, character classes and
// lookbehinds `(?<=` / `(?<!`. Used to check fixture variables; the dialect lint lives in classify.

export function namedGroups(regex: string): string[] {
  const names: string[] = [];
  let inClass = false;
  for (let i = 0; i < regex.length; i++) {
    const c = regex[i];
    if (c === '\\') { i++; continue; }
    if (inClass) { if (c === ']') inClass = false; continue; }
    if (c === '[') { inClass = true; continue; }
    if (c === '(' && regex.startsWith('(?<', i)) {
      const m = /^\(\?<([^>=!][^>]*)>/.exec(regex.slice(i, i + 80));
      if (m) names.push(m[1]!);
    }
  }
  return names;
}
