import { lstat, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';

/** A commit id as git writes it in HEAD or a ref file (SHA-1, or SHA-256 in a repository made so). */
const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The work tree holding `folder` and its `HEAD` commit, read from git's own files as git does: the nearest
 * `.git` (a folder, or a linked worktree's `gitdir:` file), its `HEAD`, the branch's loose ref or
 * `packed-refs`. A git process costs the daemon a process start, 15–40 ms for a process the size of a server
 * (the spawn copies its page tables), which on a diff was as much as the diff's own parsing.
 *
 * Null whenever the layout is not that plain one (GIT_DIR or a ceiling in the environment, `core.worktree`, a reftable
 * store, a symbolic ref pointing at a symbolic ref, an unborn branch, no `.git` at all): the caller then asks
 * git, which also says precisely what is wrong.
 */
export async function readWorkTreeHead(folder: string): Promise<{ topLevel: string; head: string } | null> {
  if (process.env.GIT_DIR || process.env.GIT_WORK_TREE || process.env.GIT_COMMON_DIR || process.env.GIT_CEILING_DIRECTORIES) return null;
  try {
    const found = await findGitDir(await realpath(folder));
    if (!found) return null;
    const commonDir = await readFile(path.join(found.gitDir, 'commondir'), 'utf8').then(
      (text) => path.resolve(found.gitDir, text.trim()),
      () => found.gitDir,
    );
    const config = await readFile(path.join(commonDir, 'config'), 'utf8');
    if (/^\s*(worktree|refstorage)\s*=/im.test(config)) return null;
    const head = await resolveHead(found.gitDir, commonDir);
    return head ? { topLevel: found.topLevel, head } : null;
  } catch {
    return null;
  }
}

async function findGitDir(start: string): Promise<{ topLevel: string; gitDir: string } | null> {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    const stat = await lstat(dotGit).catch(() => null);
    if (stat?.isDirectory()) return { topLevel: dir, gitDir: dotGit };
    if (stat?.isFile()) {
      const pointer = /^gitdir: (.+)$/m.exec(await readFile(dotGit, 'utf8'));
      return pointer ? { topLevel: dir, gitDir: path.resolve(dir, pointer[1]!.trim()) } : null;
    }
    if (path.dirname(dir) === dir) return null;
  }
}

async function resolveHead(gitDir: string, commonDir: string): Promise<string | null> {
  const head = (await readFile(path.join(gitDir, 'HEAD'), 'utf8')).trim();
  if (COMMIT_ID.test(head)) return head;
  const ref = /^ref: (refs\/heads\/\S+)$/.exec(head)?.[1];
  if (!ref || ref.split('/').includes('..')) return null;
  const loose = await readFile(path.join(commonDir, ref), 'utf8').then(
    (text) => text.trim(),
    () => null,
  );
  if (loose !== null) return COMMIT_ID.test(loose) ? loose : null;
  const packed = await readFile(path.join(commonDir, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    const [id, name] = line.split(' ');
    if (name === ref && id && COMMIT_ID.test(id)) return id;
  }
  return null;
}
