import { promises as fs } from 'node:fs';

/**
 * Fsyncs a file or a folder by name (a folder's fsync makes the names in it, new or renamed, durable). By
 * name, not by a descriptor kept open: a file replaced by a rename since would leave that descriptor on the
 * old one.
 */
export async function fsyncPath(target: string): Promise<void> {
  const handle = await fs.open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
