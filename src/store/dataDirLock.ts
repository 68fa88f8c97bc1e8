import { createHash, randomUUID } from 'node:crypto';
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

/** Lock files this process holds: a lock naming our own pid that is not among them is a previous life's. */
const heldByThisProcess = new Set<string>();

/** Attempts to take the lock; more than one only while other processes take over the same stale lock. */
const MAX_ATTEMPTS = 50;
/** Wait before looking again while another process takes over a stale lock. */
const TAKEOVER_WAIT_MS = 20;

/**
 * One process per data dir: nedb keeps the whole data set in memory and appends to one file, so two writers
 * would silently lose each other's rows. A lock left by a crashed process is taken over: its pid is gone, or
 * it is our own pid but not a lock we took (a container restarts its service as pid 1 again).
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const lockPath = path.resolve(dataDir, LOCK_FILE_NAME);
  // The pid says who holds the lock; the nonce tells this holder's file from any other with the same pid.
  const content = `${process.pid} ${randomUUID()}`;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    try {
      await createWithContent(lockPath, content);
      heldByThisProcess.add(lockPath);
      return {
        release: async () => {
          heldByThisProcess.delete(lockPath);
          await fs.rm(lockPath, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const seen = await fs.readFile(lockPath, 'utf8').catch(() => undefined);
    if (seen === undefined) continue; // released between our two calls: try again
    const holder = Number.parseInt(seen, 10);
    if (isHeld(lockPath, holder)) throw new DataDirLockedError(dataDir, holder);
    await removeStaleLock(lockPath, seen);
  }
  throw new Error(`Could not take the lock ${lockPath}: other processes kept taking it over`);
}

/**
 * Creates `file` holding `content` in one step, failing with EEXIST if it exists: a file created empty and
 * written afterwards could be read empty in between, and taken for a broken, stale lock.
 */
async function createWithContent(file: string, content: string): Promise<void> {
  const draft = `${file}.draft-${process.pid}-${randomUUID()}`;
  await fs.writeFile(draft, content, { flag: 'wx' });
  try {
    await fs.link(draft, file);
  } finally {
    await fs.rm(draft, { force: true });
  }
}

function isHeld(lockPath: string, holder: number): boolean {
  if (!Number.isInteger(holder)) return false;
  if (holder === process.pid) return heldByThisProcess.has(lockPath);
  return isRunning(holder);
}

/**
 * Deletes the stale lock we read, and only that one. Several processes starting at once may all read the same
 * stale lock; a plain delete by a slow one would remove the lock a faster one has just taken, and both would
 * run. So deleting a stale lock takes a claim first, a file named after that lock's content and created
 * exclusively: one process at a time holds it. Its holder deletes the lock only if it still reads the same;
 * no new lock ever reads the same (each holds a nonce), so what it deletes is the stale lock, whoever else
 * read it. The others wait and look again.
 */
async function removeStaleLock(lockPath: string, stale: string): Promise<void> {
  const claim = `${lockPath}.takeover-${createHash('sha256').update(stale).digest('hex').slice(0, 16)}`;
  try {
    await createWithContent(claim, String(process.pid));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    await removeAbandonedClaim(claim);
    await new Promise((resolve) => setTimeout(resolve, TAKEOVER_WAIT_MS));
    return;
  }
  try {
    if ((await fs.readFile(lockPath, 'utf8').catch(() => undefined)) === stale) await fs.rm(lockPath, { force: true });
  } finally {
    await fs.rm(claim, { force: true });
  }
}

/** A claim whose process died mid-takeover would block every later start. */
async function removeAbandonedClaim(claim: string): Promise<void> {
  const claimer = Number.parseInt(await fs.readFile(claim, 'utf8').catch(() => ''), 10);
  if (Number.isInteger(claimer) && claimer !== process.pid && !isRunning(claimer)) await fs.rm(claim, { force: true });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
