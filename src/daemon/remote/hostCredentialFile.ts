import { chmod, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { replaceFile } from '../../store/replaceFile';

/** This host's own credential (issue 30): readable by this user only, like an SSH key. */
export const CREDENTIAL_FILE_NAME = 'credential';
const OWNER_ONLY = 0o600;

export function credentialFileOf(dataDir: string): string {
  return path.join(dataDir, CREDENTIAL_FILE_NAME);
}

/** The stored credential, or undefined before the first enrollment. A file others could read is made 0600 again. */
export async function loadHostCredential(dataDir: string, log: (message: string) => void): Promise<string | undefined> {
  const file = credentialFileOf(dataDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (((await stat(file)).mode & 0o077) !== 0) {
    await chmod(file, OWNER_ONLY);
    log(`${file} could be read by other users: made it 0600`);
  }
  return text.trim() || undefined;
}

/** Renamed in whole (a kill mid-write leaves the old file or the new one), created 0600. */
export async function saveHostCredential(dataDir: string, credential: string): Promise<string> {
  const file = credentialFileOf(dataDir);
  await replaceFile(file, credential + '\n', { mode: OWNER_ONLY });
  return file;
}
