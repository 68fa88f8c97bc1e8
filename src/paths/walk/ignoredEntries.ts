import type { DirectoryNode } from './directoryNode';
import { compileIgnoreFile, EVERYTHING_IGNORED, IgnorePass, type IgnoreChain, type IgnoreFile } from './ignoreRules';

/**
 * Marks `ignored` on the entries of the folders a refresh read, as git would decide it: the `.gitignore` files
 * from the root down to the entry's folder, nearest first, then the root's `.git/info/exclude`; everything
 * inside an ignored folder is ignored; and the folders in `alwaysIgnored` (relative paths: the service's own
 * data folder when it lies under the root) are ignored whatever the rules say.
 *
 * Once per walk or revalidation, never per keystroke, and only where something changed: a folder that was not
 * read keeps its entries' marks, unless the rules above it changed (a `.gitignore` edited, added or removed, a
 * folder newly ignored or no longer): then its whole subtree is marked again. `read` holds each folder after
 * the one that holds it (a folder is queued once its parent's read has answered, `revalidate.ts`).
 *
 * Returns whether a mark changed, so the flat listing and its name index (which packs the marks) are rebuilt.
 */
export function markIgnored(top: DirectoryNode, read: readonly DirectoryNode[], alwaysIgnored: ReadonlySet<string>): boolean {
  if (read.length === 0) return false;
  const pass = new IgnorePass();
  const wasRead = new Set(read);
  const marked = new Set<DirectoryNode>();
  let changed = false;

  const mark = (node: DirectoryNode, outer: IgnoreChain | null): void => {
    marked.add(node);
    const chain = chainOf(node, outer);
    const chainChanged = chain !== node.ignoreChain;
    node.ignoreChain = chain;
    if (chainChanged || wasRead.has(node)) {
      for (const entry of node.entries) {
        const ignored = (entry.kind === 'directory' && alwaysIgnored.has(entry.path)) || pass.ignores(chain, entry);
        if (ignored === entry.ignored) continue;
        entry.ignored = ignored;
        changed = true;
      }
    }
    for (const child of node.children) {
      // A child's chain changes with this folder's, or when its own mark changed (ignored ↔ not).
      if (chainChanged || (child.entry!.ignored === true) !== (child.ignoreChain === EVERYTHING_IGNORED)) mark(child, chain);
    }
  };

  for (const node of read) {
    if (marked.has(node)) continue;
    mark(node, node.parent === null ? excludeChainOf(top) : (node.parent.ignoreChain ?? null));
  }
  return changed;
}

/** The chain for a folder's entries: its own `.gitignore` before the chain of the folder holding it. */
function chainOf(node: DirectoryNode, outer: IgnoreChain | null): IgnoreChain | null {
  if (outer === EVERYTHING_IGNORED || node.entry?.ignored === true) return EVERYTHING_IGNORED;
  node.ignoreFile = compiled(node.ignoreFile, node.gitignore);
  if (node.ignoreFile === null) return outer;
  const previous = node.ignoreChain;
  // The same links as last time keep the same object: an unchanged chain is how a pass knows to stop.
  if (previous != null && previous.file === node.ignoreFile && previous.parent === outer) return previous;
  return { file: node.ignoreFile, base: node.relative, parent: outer };
}

/** The root's `.git/info/exclude` as the last link of every chain (git ranks it below every `.gitignore`). */
const excludeChains = new WeakMap<IgnoreFile, IgnoreChain>();
function excludeChainOf(top: DirectoryNode): IgnoreChain | null {
  top.excludeFile = compiled(top.excludeFile, top.gitExclude);
  if (top.excludeFile === null) return null;
  let chain = excludeChains.get(top.excludeFile);
  if (chain === undefined) excludeChains.set(top.excludeFile, (chain = { file: top.excludeFile, base: '', parent: null }));
  return chain;
}

function compiled(previous: IgnoreFile | null, text: string | null): IgnoreFile | null {
  if (text === null) return null;
  return previous !== null && previous.text === text ? previous : compileIgnoreFile(text);
}
