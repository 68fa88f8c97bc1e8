import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** Where a work tree's HEAD stands, as git's own files say. */
export interface HeadFiles {
  /** The work tree's git dir (`.git`, or `.git/worktrees/<name>` of a linked worktree). */
  gitDir: string;
  /** The repository's common git dir, real path (the repo lock's key, as findWorkTree gives it). */
  commonDir: string;
  indexFile: string;
  /** `refs/heads/<branch>`, or `HEAD` itself when detached. */
  ref: string;
  branch: string | null;
  commit: string;
}

/** A full object name, SHA-1 or SHA-256. */
export const OBJECT_NAME = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Environment that moves git's files away from where a work tree's `.git` says: git is asked instead. */
const RELOCATING_ENV = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY'];

/**
 * HEAD read from git's files instead of a `git rev-parse`: each git process costs the daemon 20–30 ms (its
 * spawn from a large Node process, then git's own start; bench:ship), and a commit and its push would read
 * HEAD three times. Only the plain layout is read: `<folder>/.git` a directory or a `gitdir:` file, a
 * `commondir` file, HEAD naming a branch (or a detached commit), the branch a loose ref or in `packed-refs`.
 * Anything else answers null and the caller asks git: a folder below the top of its work tree, the
 * environment relocating git's files, a symbolic ref in a ref file, reftable (HEAD names `refs/heads/.invalid`,
 * found nowhere), an unborn branch.
 *
 * Read synchronously: a handful of files of a few bytes, microseconds of the event loop, where the git process
 * they replace holds it ~10 ms for its spawn alone; and each read through libuv's thread pool is a wait of its
 * own, several milliseconds on a loaded machine (bench:ship: 7 → 19 ms before `git add` started, at load 4).
 */
export function readHeadFiles(folder: string): HeadFiles | null {
  if (RELOCATING_ENV.some((name) => process.env[name] !== undefined)) return null;
  try {
    const gitDir = gitDirOf(folder);
    if (!gitDir) return null;
    const commonDir = realpathSync(commonDirOf(gitDir));
    const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    const indexFile = path.join(gitDir, 'index');
    if (OBJECT_NAME.test(head)) return { gitDir, commonDir, indexFile, ref: 'HEAD', branch: null, commit: head };
    const ref = /^ref: (refs\/heads\/\S+)$/.exec(head)?.[1];
    if (!ref || !isPlainRefName(ref)) return null;
    const commit = readRef(commonDir, ref);
    if (!commit) return null;
    return { gitDir, commonDir, indexFile, ref, branch: ref.slice('refs/heads/'.length), commit };
  } catch {
    return null;
  }
}

/** The commit a ref of the common dir names now (`HEAD`: the work tree's own), or null when git must be asked. */
export function readRefNow(head: Pick<HeadFiles, 'gitDir' | 'commonDir'>, ref: string): string | null {
  try {
    if (ref === 'HEAD') {
      const value = readFileSync(path.join(head.gitDir, 'HEAD'), 'utf8').trim();
      return OBJECT_NAME.test(value) ? value : null;
    }
    return isPlainRefName(ref) ? readRef(head.commonDir, ref) : null;
  } catch {
    return null;
  }
}

function gitDirOf(folder: string): string | null {
  const dotGit = path.join(folder, '.git');
  const stat = statSync(dotGit, { throwIfNoEntry: false });
  if (!stat) return null;
  if (stat.isDirectory()) return dotGit;
  const pointer = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1];
  return pointer ? path.resolve(folder, pointer.trim()) : null;
}

function commonDirOf(gitDir: string): string {
  const pointer = readIfThere(path.join(gitDir, 'commondir'));
  return pointer ? path.resolve(gitDir, pointer.trim()) : gitDir;
}

/** Git refuses such names itself; a name read from a file never leads a read outside the refs. */
const isPlainRefName = (ref: string) => !ref.split('/').some((part) => part === '' || part === '.' || part === '..');

/** A loose ref (git writes each one whole, by rename), else its line in `packed-refs`. */
function readRef(commonDir: string, ref: string): string | null {
  const loose = readIfThere(path.join(commonDir, ref));
  if (loose !== null) {
    const value = loose.trim();
    return OBJECT_NAME.test(value) ? value : null;
  }
  const packed = readIfThere(path.join(commonDir, 'packed-refs')) ?? '';
  for (const line of packed.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0 && line.slice(space + 1) === ref && OBJECT_NAME.test(line.slice(0, space))) return line.slice(0, space);
  }
  return null;
}

/** A file's text, or null when there is no such file. */
function readIfThere(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}
