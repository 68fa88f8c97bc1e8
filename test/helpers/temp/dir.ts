import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh real directory per test, removed afterwards (`after`/`afterEach` call `remove`). */
export async function makeTempDir(prefix = 'thread-events-'): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}
