import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { OBJECT_NAME } from './headFiles';

/** A commit's tree and parents, as its object names them. */
export interface CommitLinks {
  tree: string;
  parents: string[];
}

/**
 * Commits read from their loose object files (`objects/ab/cdef…`, zlib-deflated `commit <size>\0tree …`), as
 * `git commit` leaves every commit it writes until a gc packs it. Null for one that is not loose (packed, or
 * in an alternate) or not a commit, and for all of them when git could see another commit in an object's
 * place (a `refs/replace/` ref, grafts): the caller asks git then. Read synchronously, as headFiles.ts says why.
 */
export function readLooseCommits(commonDir: string, shas: readonly string[]): (CommitLinks | null)[] {
  if (mayReplaceObjects(commonDir)) return shas.map(() => null);
  return shas.map((sha) => readLooseCommit(commonDir, sha));
}

function readLooseCommit(commonDir: string, sha: string): CommitLinks | null {
  if (!OBJECT_NAME.test(sha)) return null;
  try {
    const object = inflateSync(readFileSync(path.join(commonDir, 'objects', sha.slice(0, 2), sha.slice(2))));
    const nul = object.indexOf(0);
    if (nul < 0 || object.toString('latin1', 0, 7) !== 'commit ') return null;
    const headers = object.toString('latin1', nul + 1, object.indexOf('\n\n', nul)).split('\n');
    const tree = /^tree (\S+)$/.exec(headers[0] ?? '')?.[1];
    if (!tree || !OBJECT_NAME.test(tree)) return null;
    const parents = headers
      .slice(1)
      .map((line) => /^parent (\S+)$/.exec(line)?.[1])
      .filter((parent): parent is string => parent !== undefined);
    return { tree, parents };
  } catch {
    return null;
  }
}

/** Replace refs and grafts make git read another commit than the object: rare, and then git is asked. */
function mayReplaceObjects(commonDir: string): boolean {
  if (process.env.GIT_REPLACE_REF_BASE !== undefined) return true;
  const exists = (...parts: string[]) => statSync(path.join(commonDir, ...parts), { throwIfNoEntry: false }) !== undefined;
  try {
    return exists('refs', 'replace') || exists('info', 'grafts') || packedRefsReplace(path.join(commonDir, 'packed-refs'));
  } catch {
    return true; // cannot be told: git is asked
  }
}

/**
 * Whether `packed-refs` holds a replace ref, read again only when git rewrote it (a new file, by rename): a
 * repository with many tags has a packed-refs of megabytes, and each commit asks twice.
 */
const packedAnswers = new Map<string, { signature: string; replaces: boolean }>();
function packedRefsReplace(file: string): boolean {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return false;
  const signature = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  const known = packedAnswers.get(file);
  if (known?.signature === signature) return known.replaces;
  const replaces = readFileSync(file, 'latin1').includes(' refs/replace/');
  packedAnswers.set(file, { signature, replaces });
  return replaces;
}
