import { promises as fs } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE_NAME = 'LOCK';

export class DataDirLockedError extends Error {
  readonly code = 'data_dir_locked';
  constructor(readonly dataDir: string, readonly pid: number) {
    super(
      `The data dir ${dataDir} is already in use by process ${pid}. Stop that process first, or, if it is no longer ` +
        `running, delete ${path.join(dataDir, LOCK_FILE_NAME)}.`,
    );
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

/**
 * One process per data dir: nedb keeps the whole data set in memory and appends to one file, so two writers
 * would silently lose each other's rows. A lock left by a crashed process (its pid is gone) is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const lockPath = path.join(dataDir, LOCK_FILE_NAME);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await fs.writeFile(lockPath, String(process.pid), { flag: 'wx' });
      return { release: () => fs.rm(lockPath, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(await fs.readFile(lockPath, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(holder) && isRunning(holder)) throw new DataDirLockedError(dataDir, holder);
      await fs.rm(lockPath, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
