// `ignore:` (docs/planning.md "Ownership"): address patterns of live resources that are not in
// the config and that menuctl leaves alone: not listed as unmanaged, not reported by drift, not
// archived by --prune. `*` matches any run of characters; everything else is literal.

/** A predicate over addresses; always false when there is no pattern. */
export function ignoreMatcher(patterns: readonly string[] | undefined): (address: string) => boolean {
  if (!patterns || patterns.length === 0) return () => false;
  const res = patterns.map((p) => new RegExp(`^${p.split('*').map(escape).join('.*')}$`, 's'));
  return (address) => res.some((re) => re.test(address));
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
