import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { replaceFile } from '../store/replaceFile';

export const TOKEN_FILE_NAME = 'token';

/** Where the bearer token came from, for the start banner. */
export type TokenSource = { token: string; file?: string };

/**
 * The configured token, else the one kept in `<dataDir>/token`, else a new one written there (0600, so only
 * this user can read it). The same token serves restarts, so clients keep working.
 */
export async function loadOrCreateToken(dataDir: string, configured?: string): Promise<TokenSource> {
  if (configured) return { token: configured };
  const file = path.join(dataDir, TOKEN_FILE_NAME);
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (stored.length >= 16) return { token: stored, file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const token = randomBytes(32).toString('base64url');
  // Written beside and renamed in: a kill mid-write must not leave a half token that the next start accepts.
  await replaceFile(file, token + '\n', { mode: 0o600 });
  return { token, file };
}
