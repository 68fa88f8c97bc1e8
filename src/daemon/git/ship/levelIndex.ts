import { promises as fs } from 'node:fs';
import { runGit } from '../runGit';

/**
 * After the branch moved, the user's index says what `git commit` would have left. The fast way: the temporary
 * index the commit was staged in *is* that index, with fresh stat data; it is put in place as git itself writes
 * an index, as `index.lock` (created exclusively, so a git command running meanwhile keeps its own) renamed
 * over the index. The lock is a hard link to the staged file: nothing is copied, and the index keeps the time
 * git wrote it, which git's check for racily clean entries compares with theirs. Where the two files cannot be
 * linked (another file system) it is a copy. Answers false when the lock was taken: the caller levels with git.
 */
export async function installIndex(indexFile: string, staged: string): Promise<boolean> {
  const lock = `${indexFile}.lock`;
  try {
    await fs.link(staged, lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    if (!(await copyInto(lock, staged))) return false;
  }
  try {
    await fs.rename(lock, indexFile);
    return true;
  } catch (error) {
    await fs.rm(lock, { force: true });
    throw error;
  }
}

async function copyInto(lock: string, staged: string): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(lock, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(await fs.readFile(staged));
    await handle.close();
    return true;
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.rm(lock, { force: true });
    throw error;
  }
}

/** The slow, always-right way (and the one a restart uses): the committed paths' entries reset to the commit's. */
export async function levelIndex(cwd: string, paths: readonly string[] | null): Promise<void> {
  await runGit(['reset', '-q', '--', ...(paths ?? [':/'])], { cwd });
}
