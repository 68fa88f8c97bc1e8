import { mkdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { newId } from '../protocol/ids';
import { replaceFile } from '../store/replaceFile';

/** Who a daemon is, kept in its data dir so the host id survives restarts (the server keys hosts by it). */
export const HostIdentitySchema = z.strictObject({ hostId: z.string().regex(/^host_/), name: z.string().min(1) });
export type HostIdentity = z.infer<typeof HostIdentitySchema>;

const IDENTITY_FILE = 'host.json';

/** The file holding a data dir's host id: deleting it (daemon stopped) gives the next start a new id. */
export function identityFileOf(dataDir: string): string {
  return path.join(dataDir, IDENTITY_FILE);
}

export async function loadHostIdentity(dataDir: string, name: string = os.hostname()): Promise<HostIdentity> {
  const file = identityFileOf(dataDir);
  try {
    const stored = HostIdentitySchema.parse(JSON.parse(await readFile(file, 'utf8')));
    return stored.name === name ? stored : await save({ ...stored, name });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`unreadable host identity ${file}: ${String(error)}`);
    await mkdir(dataDir, { recursive: true });
    return save({ hostId: newId('host'), name });
  }

  async function save(identity: HostIdentity): Promise<HostIdentity> {
    // Renamed in whole: a kill mid-write of the file in place left it empty, and the daemon then refused to start.
    await replaceFile(file, JSON.stringify(identity) + '\n');
    return identity;
  }
}
