import { chmod, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** The data dir: this user's only, like ~/.ssh. It holds the credential, the host id and agent output. */
const OWNER_ONLY_DIR = 0o700;
const OWNER_ONLY_FILE = 0o600;

/**
 * Makes the remote daemon's data dir 0700 (issue 37: `host.json`, `LOCK` and `link-outbox.jsonl`, whose
 * batches are thread rows, so agent output, were readable by every user of the machine). A dir that exists
 * with looser bits is repaired, and said so.
 */
export async function makePrivateDataDir(dataDir: string, log: (message: string) => void): Promise<void> {
  const made = await mkdir(dataDir, { recursive: true, mode: OWNER_ONLY_DIR });
  // `mode` is masked by the umask and applies to the last folder only; chmod says exactly what is meant.
  if (made === undefined) {
    if (await repair(dataDir, OWNER_ONLY_DIR)) log(`${dataDir} could be read by other users: made it 0700`);
  } else await chmod(dataDir, OWNER_ONLY_DIR);
}

/**
 * Makes each of the data dir's own files 0600: a new one is created with the umask's bits (the lock is written
 * anew at every start), one from an earlier version may be 0644. Quietly: the dir's own repair is what is news.
 */
export async function keepFilesPrivate(dataDir: string, names: readonly string[]): Promise<void> {
  for (const name of names) await repair(path.join(dataDir, name), OWNER_ONLY_FILE);
}

/** True when `file` had bits for others and was made `mode`; false when it was private already or is not there. */
async function repair(file: string, mode: number): Promise<boolean> {
  let bits: number;
  try {
    bits = (await stat(file)).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  if ((bits & 0o077) === 0) return false;
  await chmod(file, mode);
  return true;
}
