import { promises as fs } from 'node:fs';
import { runGit } from '../runGit';

/**
 * After the branch moved, the user's index says what `git commit` would have left. The fast way: the temporary
 * index the commit was staged in *is* that index, with fresh stat data; it is put in place as git itself writes
 * an index, inside `index.lock` (created exclusively, so a git command running meanwhile keeps its own) and
 * renamed over the index. Answers false when the lock was taken: the caller levels with git instead.
 */
export async function installIndex(indexFile: string, staged: string): Promise<boolean> {
  const lock = `${indexFile}.lock`;
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
    await fs.rename(lock, indexFile);
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
