import { readlink, realpath, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

/**
 * Where the kernel says an open descriptor's file is now (Linux: the `/proc/self/fd/N` link), or null
 * where the system cannot say (no procfs: macOS, a container without /proc). Unlike a path resolved before
 * the open, this names the file actually opened, whatever symlink was swapped in on the way.
 */
export async function descriptorPath(fd: number): Promise<string | null> {
  return readlink(`/proc/self/fd/${fd}`).catch(() => null);
}

/**
 * The real path of what `handle` opened from `opened`: the descriptor's own path on Linux. Elsewhere a
 * best effort: `opened` resolved again after the open, accepted only when the file there is the very file
 * opened (same device and inode), else null. It catches one swap between the check and the open, not a
 * swapper that puts the old link back between the open and this second look (README "Known limits").
 */
export async function openedRealPath(
  handle: FileHandle,
  opened: string,
  /** How the descriptor's path is read; tests pass one that cannot, to try the best effort on Linux. */
  pathOfDescriptor: (fd: number) => Promise<string | null> = descriptorPath,
): Promise<string | null> {
  const fromDescriptor = await pathOfDescriptor(handle.fd);
  if (fromDescriptor !== null) return fromDescriptor;
  const again = await realpath(opened).catch(() => null);
  if (again === null) return null;
  const [now, held] = await Promise.all([stat(again).catch(() => null), handle.stat()]);
  return now !== null && now.dev === held.dev && now.ino === held.ino ? again : null;
}
