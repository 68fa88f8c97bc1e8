import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fsyncPath } from './fsyncPath';

/**
 * Replaces `file`'s content in one step: a kill at any moment leaves the old content or the new one, never an
 * empty or half-written file, which an in-place `writeFile` (it truncates first) can leave. The new content
 * is written beside the file under a name of its own, fsynced, renamed over the file, and the folder fsynced,
 * so the replacement also survives a power cut. A kill before the rename leaves that temporary file behind,
 * ending in `.tmp`.
 */
export async function replaceFile(file: string, content: string | Uint8Array, options: { mode?: number } = {}): Promise<void> {
  const temp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await fs.open(temp, 'wx', options.mode ?? 0o666);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await fsyncPath(path.dirname(file));
}
