import fc from 'fast-check';
import { newWalkEntry, type WalkEntry } from '../../../src/paths/walk/walkEntry';

/** A file (`children` null) or a directory, for in-memory listings the ranking stages can take. */
export interface EntryNode {
  name: string;
  children: EntryNode[] | null;
}

/** Random trees of the given names (unique among siblings), at most `maxDepth` deep. */
export function entryTreeArb(
  names: readonly string[],
  shape: { maxDepth: number; maxChildren: number; maxRoots: number },
): fc.Arbitrary<EntryNode[]> {
  const nameArb = fc.constantFrom(...names);
  const { node } = fc.letrec<{ node: EntryNode; children: EntryNode[] | null }>((tie) => ({
    node: fc.record({ name: nameArb, children: tie('children') }),
    children: fc.oneof(
      { depthIdentifier: 'tree', maxDepth: shape.maxDepth },
      fc.constant(null),
      fc.uniqueArray(tie('node'), { selector: (child) => child.name, maxLength: shape.maxChildren }),
    ),
  }));
  return fc.uniqueArray(node, { selector: (root) => root.name, minLength: 1, maxLength: shape.maxRoots });
}

/** A tree's entries as a walk lists them: a directory's entries together, each directory before what it holds. */
export function walkEntries(tree: EntryNode[]): WalkEntry[] {
  const entries: WalkEntry[] = [];
  const visit = (nodes: EntryNode[], parent: WalkEntry | null): void => {
    const here = nodes.map((node) => {
      const path = parent === null ? node.name : `${parent.path}/${node.name}`;
      return { node, entry: newWalkEntry(node.children === null ? 'file' : 'directory', path, node.name, parent) };
    });
    entries.push(...here.map(({ entry }) => entry));
    for (const { node, entry } of here) if (node.children !== null) visit(node.children, entry);
  };
  visit(tree, null);
  return entries;
}
