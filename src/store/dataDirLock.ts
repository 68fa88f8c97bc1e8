import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE_NAME = 'LOCK';

export class DataDirLockedError extends Error {
  readonly code = 'data_dir_locked';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
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
 * Files this process holds (locks, takeover claims, drafts): one naming our own pid that is not among them
 * is a previous life's.
 */
const heldByThisProcess = new Set<string>();

/** Attempts to take the lock; more than one only while other processes take over the same stale lock. */
const MAX_ATTEMPTS = 50;
/** Wait before looking again while another process takes over a stale lock. */
const TAKEOVER_WAIT_MS = 20;

/**
 * One process per data dir: nedb keeps the whole data set in memory and appends to one file, so two writers
 * would silently lose each other's rows. A lock left by a crashed process is taken over: its pid is gone, or
 * it is our own pid but not a lock we took (a container restarts its service as pid 1 again), or the pid
 * now belongs to a process that started later than the holder did (pids are reused).
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  // The real path: the same dir reached through a symlink is the same lock.
  const lockPath = path.join(await fs.realpath(dataDir), LOCK_FILE_NAME);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    if (await createHeld(lockPath).then(() => true, existed)) {
      await removeLeftovers(lockPath);
      return {
        release: async () => {
          heldByThisProcess.delete(lockPath);
          await fs.rm(lockPath, { force: true });
        },
      };
    }
    const seen = await fs.readFile(lockPath, 'utf8').catch(() => undefined);
    if (seen === undefined) continue; // released between our two calls: try again
    if (await isHeld(lockPath, seen)) throw new DataDirLockedError(dataDir, Number.parseInt(seen, 10));
    await removeStaleLock(lockPath, seen);
  }
  throw new Error(`Could not take the lock ${lockPath}: other processes kept taking it over`);
}

/**
 * Creates `file` naming this process as its holder, in one step, failing with EEXIST if it exists: a file
 * created empty and written afterwards could be read empty in between, and taken for a stale one. The pid
 * says who holds it; the nonce tells this holder's file from any other with the same pid; the start
 * identity (where the system tells it) tells this process from a later one given the same pid.
 */
async function createHeld(file: string): Promise<void> {
  const draft = `${file}.draft-${randomUUID()}`;
  heldByThisProcess.add(draft);
  try {
    const started = await startIdentityOf(process.pid);
    await fs.writeFile(draft, `${process.pid} ${randomUUID()}${started === undefined ? '' : ` ${started}`}`, { flag: 'wx' });
    await fs.link(draft, file);
    heldByThisProcess.add(file);
  } finally {
    await fs.rm(draft, { force: true });
    heldByThisProcess.delete(draft);
  }
}

/** `false` for a file that already exists; any other failure is rethrown. */
function existed(error: NodeJS.ErrnoException): false {
  if (error.code !== 'EEXIST') throw error;
  return false;
}

/**
 * Whether the process a lock, claim or draft names still holds it. The content is `<pid> <nonce> [<start
 * identity>]`; a file without the identity (older versions, systems without /proc) trusts the pid alone.
 */
async function isHeld(file: string, content: string): Promise<boolean> {
  const [pidText, , recordedStart] = content.trim().split(' ');
  const holder = Number.parseInt(pidText ?? '', 10);
  if (!Number.isInteger(holder)) return false;
  if (holder === process.pid) return heldByThisProcess.has(file);
  if (!isRunning(holder)) return false;
  if (recordedStart === undefined) return true;
  const runningStart = await startIdentityOf(holder);
  // Unreadable (another user's process under hidepid, a race with its exit): the pid's word stands.
  return runningStart === undefined || runningStart === recordedStart;
}

/**
 * When process `pid` started, as `<boot id>:<start time in clock ticks since boot>` from /proc (Linux);
 * undefined elsewhere. A reused pid has a later start time; after a reboot, another boot id.
 */
async function startIdentityOf(pid: number): Promise<string | undefined> {
  try {
    const [bootId, stat] = await Promise.all([
      fs.readFile('/proc/sys/kernel/random/boot_id', 'utf8'),
      fs.readFile(`/proc/${pid}/stat`, 'utf8'),
    ]);
    // Fields after the command name, which sits in parentheses and may hold spaces or parentheses itself;
    // the start time is field 22 of the line, the 20th after the name.
    const startTicks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return startTicks && /^\d+$/.test(startTicks) ? `${bootId.trim()}:${startTicks}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Claims and drafts of processes that died between two steps here stay in the dir; the lock's holder
 * clears them (a live process's are left alone).
 */
async function removeLeftovers(lockPath: string): Promise<void> {
  const dir = path.dirname(lockPath);
  const prefix = `${path.basename(lockPath)}.`;
  for (const name of await fs.readdir(dir)) {
    if (!name.startsWith(prefix)) continue;
    const file = path.join(dir, name);
    const content = await fs.readFile(file, 'utf8').catch(() => '');
    // No pid yet: another process is writing its draft this very moment.
    if (Number.isInteger(Number.parseInt(content, 10)) && !(await isHeld(file, content))) await fs.rm(file, { force: true });
  }
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
  const claim = takeoverClaimPath(lockPath, stale);
  if (!(await createHeld(claim).then(() => true, existed))) {
    // A claim whose process died mid-takeover (an earlier life of ours included) would block every start.
    const claimer = await fs.readFile(claim, 'utf8').catch(() => undefined);
    if (claimer !== undefined && !(await isHeld(claim, claimer))) await fs.rm(claim, { force: true });
    await new Promise((resolve) => setTimeout(resolve, TAKEOVER_WAIT_MS));
    return;
  }
  try {
    if ((await fs.readFile(lockPath, 'utf8').catch(() => undefined)) === stale) await fs.rm(lockPath, { force: true });
  } finally {
    heldByThisProcess.delete(claim);
    await fs.rm(claim, { force: true });
  }
}

/** The claim a takeover of the lock reading `stale` needs: one name per stale lock. */
export function takeoverClaimPath(lockPath: string, stale: string): string {
  return `${lockPath}.takeover-${createHash('sha256').update(stale).digest('hex').slice(0, 16)}`;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
