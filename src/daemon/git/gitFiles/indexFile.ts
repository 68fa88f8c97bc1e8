/** One stage-0 entry of an index: what a tree made of it holds at `path`. */
export interface IndexEntry {
  /** The path's bytes as git keeps them (entries are in git's order: by these bytes). */
  path: Buffer;
  mode: number;
  oid: string;
}

/** An index read whole: its entries, and the tree it is (its cache-tree root), when git recorded that. */
export interface IndexContents {
  entries: IndexEntry[];
  /** Null when the root of the cache tree is missing or invalidated (something was staged since). */
  rootTree: string | null;
}

const ENTRY_STAT_BYTES = 40;
const EXTENDED = 0x4000;
const STAGE = 0x3000;
const NAME_LENGTH = 0x0fff;
const INTENT_TO_ADD = 0x2000;

/**
 * Reads an index file (`Documentation/gitformat-index.txt`, versions 2 to 4) as far as comparing two of them
 * needs: each entry's path, mode and object, and the cache-tree root. Answers null for anything it does not
 * read as a plain list of the tree's files, so the caller asks git instead: a split index (`link`), a sparse
 * index (`sdir`), a conflict (stage > 0), an intent-to-add entry (in the index, not in its tree), a file
 * that does not parse. `hashBytes`: 20 for SHA-1 repositories, 32 for SHA-256 ones.
 */
export function readIndex(data: Buffer, hashBytes: number): IndexContents | null {
  if (data.length < 12 + hashBytes || data.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = data.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = data.readUInt32BE(8);
  const end = data.length - hashBytes;
  const entries: IndexEntry[] = [];
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let n = 0; n < count; n++) {
    const start = at;
    if (at + ENTRY_STAT_BYTES + hashBytes + 2 > end) return null;
    const mode = data.readUInt32BE(at + 24);
    const oid = data.toString('hex', at + ENTRY_STAT_BYTES, at + ENTRY_STAT_BYTES + hashBytes);
    at += ENTRY_STAT_BYTES + hashBytes;
    const flags = data.readUInt16BE(at);
    at += 2;
    if (flags & EXTENDED) {
      if (version < 3 || at + 2 > end || data.readUInt16BE(at) & INTENT_TO_ADD) return null;
      at += 2;
    }
    if (flags & STAGE) return null;
    let path: Buffer;
    if (version === 4) {
      const strip = readVarint(data, at);
      if (!strip || strip.value > previous.length) return null;
      at = strip.next;
      const nul = data.indexOf(0, at);
      if (nul < 0 || nul >= end) return null;
      path = Buffer.concat([previous.subarray(0, previous.length - strip.value), data.subarray(at, nul)]);
      at = nul + 1;
    } else {
      const length = flags & NAME_LENGTH;
      const nul = length < NAME_LENGTH ? at + length : data.indexOf(0, at);
      if (nul < 0 || nul >= end || data[nul] !== 0) return null;
      path = data.subarray(at, nul);
      // 1 to 8 NULs pad the entry to a multiple of 8 bytes, the name still NUL-terminated.
      at = start + ((nul - start + 8) & ~7);
    }
    entries.push({ path, mode, oid });
    previous = path;
  }
  return withExtensions(data, at, end, hashBytes, entries);
}

function withExtensions(data: Buffer, at: number, end: number, hashBytes: number, entries: IndexEntry[]): IndexContents | null {
  let rootTree: string | null = null;
  while (at + 8 <= end) {
    const signature = data.toString('latin1', at, at + 4);
    const size = data.readUInt32BE(at + 4);
    const body = at + 8;
    if (body + size > end) return null;
    if (signature === 'link' || signature === 'sdir') return null;
    if (signature === 'TREE') rootTree = cacheTreeRoot(data.subarray(body, body + size), hashBytes);
    at = body + size;
  }
  return at === end ? { entries, rootTree } : null;
}

/** The cache tree's first entry is the root: `\0<entry count> <subtrees>\n<tree>`, the count -1 when invalid. */
function cacheTreeRoot(tree: Buffer, hashBytes: number): string | null {
  const newline = tree.indexOf(0x0a);
  if (newline < 0 || newline + 1 + hashBytes > tree.length) return null;
  const header = /^\0(-?\d+) \d+$/.exec(tree.toString('latin1', 0, newline));
  if (!header || Number(header[1]) < 0) return null;
  return tree.toString('hex', newline + 1, newline + 1 + hashBytes);
}

/** Git's offset varint (varint.c): 7 bits a byte, each continuation adding one before the shift. */
function readVarint(data: Buffer, at: number): { value: number; next: number } | null {
  let byte = data[at++];
  if (byte === undefined) return null;
  let value = byte & 0x7f;
  while (byte & 0x80) {
    byte = data[at++];
    if (byte === undefined || value > 2 ** 40) return null;
    value = (value + 1) * 128 + (byte & 0x7f);
  }
  return { value, next: at };
}

/**
 * The paths whose entry (mode or object) differs between two indexes, or that only one has, in git's path
 * order: exactly what `git diff-tree -r --name-only` lists between the two trees they are.
 */
export function changedPaths(before: readonly IndexEntry[], after: readonly IndexEntry[]): string[] {
  const changed: string[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    const [a, b] = [before[i], after[j]];
    const order = !a ? 1 : !b ? -1 : Buffer.compare(a.path, b.path);
    if (order === 0 && a!.mode === b!.mode && a!.oid === b!.oid) {
      i++;
      j++;
      continue;
    }
    changed.push((order > 0 ? b! : a!).path.toString('utf8'));
    if (order <= 0) i++;
    if (order >= 0) j++;
  }
  return changed;
}
