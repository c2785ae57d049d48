// Commits made with git's plumbing in the git backend's scratch bare repository: no work tree,
// no index, so nothing of the user's is checked out and one file changes without the others
// (the record, each scope's lock) being read or rewritten.

import { HINT_LOCAL } from './git-exec.js';
import type { GitRunner } from './git-exec.js';

export interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
  name: string;
}

/** The entries of `treeish` (with `recursive`, every file with its path). */
export async function listTree(git: GitRunner, treeish: string, recursive = false): Promise<TreeEntry[]> {
  const out = await git.ok(['ls-tree', ...(recursive ? ['-r'] : []), '-z', treeish], HINT_LOCAL);
  // `MODE TYPE OID\tNAME\0`...: -z keeps names unquoted.
  return out.split('\0').filter((l) => l !== '').map((line) => {
    const tab = line.indexOf('\t');
    const [mode, type, oid] = line.slice(0, tab).split(' ') as [string, string, string];
    return { mode, type, oid, name: line.slice(tab + 1) };
  });
}

/** A blob's content. Read whole, without the bound on other git output: a record can be large. */
export async function readBlob(git: GitRunner, oid: string): Promise<string> {
  return git.ok(['cat-file', 'blob', oid], HINT_LOCAL, { unbounded: true });
}

/**
 * A commit on `parent` (null: a root commit) with the file at `path` set to `content` (null:
 * removed) and everything else as it was; returns its sha. Written to the scratch repository
 * only: pushing it is the caller's.
 */
export async function commitChange(git: GitRunner, parent: string | null, path: string, content: string | null, message: string): Promise<string> {
  const blob = content === null ? null : (await git.ok(['hash-object', '-w', '--stdin'], HINT_LOCAL, { input: content })).trim();
  const tree = await updateTree(git, parent ? `${parent}^{tree}` : null, path.split('/'), blob, true);
  const parents = parent ? ['-p', parent] : [];
  // The message on stdin: whatever it holds is never read as an option.
  return (await git.ok(['commit-tree', tree!, ...parents, '-F', '-'], HINT_LOCAL, { input: `${message}\n` })).trim();
}

/** `treeish` with the file at `segments` replaced by `blob` (null: removed); null for an empty subtree. */
async function updateTree(git: GitRunner, treeish: string | null, segments: string[], blob: string | null, root: boolean): Promise<string | null> {
  const entries = treeish ? await listTree(git, treeish) : [];
  const [name, ...rest] = segments as [string, ...string[]];
  const at = entries.findIndex((e) => e.name === name);
  const old = at >= 0 ? entries.splice(at, 1)[0] : undefined;
  if (rest.length === 0) {
    if (blob) entries.push({ mode: '100644', type: 'blob', oid: blob, name });
  } else {
    const sub = await updateTree(git, old?.type === 'tree' ? old.oid : null, rest, blob, false);
    if (sub) entries.push({ mode: '040000', type: 'tree', oid: sub, name });
  }
  // git keeps no empty directories: the last lock released removes locks/.
  if (entries.length === 0 && !root) return null;
  // mktree sorts the entries itself.
  const input = entries.map((e) => `${e.mode} ${e.type} ${e.oid}\t${e.name}\0`).join('');
  return (await git.ok(['mktree', '-z'], HINT_LOCAL, { input })).trim();
}
