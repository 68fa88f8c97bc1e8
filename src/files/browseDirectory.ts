import { constants } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BrowseDirectoryRequest, BrowseDirectoryResult, BrowseEntry } from '../protocol/hostFiles';
import { HostCommandError } from '../protocol/hostErrors';
import { rootNotAllowed, whereItLeads } from './allowedRoots';
import { descriptorPath, openedRealPath } from './openedPath';
import { isInside, isInsideAny } from './pathInside';

/**
 * `host.browse_directory`: one level of a folder picker. Unlike the listing walk it skips every dot-named
 * entry and `node_modules`, and it follows symlinks (a linked workspace is a folder to the person picking).
 * Broken links, FIFOs, sockets and devices are left out. Directories first, then by name. The request comes
 * checked against the contract by the daemon's dispatcher (an absolute path).
 *
 * With `allowedFolders` (real paths of the host's allowed roots) the picker sees only those folders and the
 * way to them: a folder inside one lists what stays inside, a folder above one lists only the entries that
 * lead to it, any other folder is `root_not_allowed`. The folder is opened and judged by its descriptor, and
 * listed through it, so a symlink swapped in after the check shows nothing outside (issue 30).
 */
export async function browseDirectory(
  request: BrowseDirectoryRequest,
  allowedFolders: readonly string[] | null = null,
): Promise<BrowseDirectoryResult> {
  const directory = resolve(request.path);
  // Judged before the stat too, so a folder outside answers `root_not_allowed` whether or not it exists.
  if (allowedFolders !== null && !leadsToAllowed(allowedFolders, await whereItLeads(directory))) throw rootNotAllowed(directory);
  const stats = await stat(directory).catch(() => null);
  if (stats === null) throw new HostCommandError('not_found', `directory not found: ${directory}`);
  if (!stats.isDirectory()) throw new HostCommandError('not_a_directory', `not a directory: ${directory}`);
  if (allowedFolders === null) return { path: directory, entries: await entriesOf(directory, directory, null) };
  const handle = await open(directory, constants.O_RDONLY | constants.O_DIRECTORY).catch((error: NodeJS.ErrnoException) => {
    throw cannotRead(directory, error);
  });
  try {
    const real = await openedRealPath(handle, directory);
    if (real === null || !leadsToAllowed(allowedFolders, real)) throw rootNotAllowed(directory);
    const listed = (await descriptorPath(handle.fd)) === null ? real : `/proc/self/fd/${handle.fd}`;
    return { path: directory, entries: await entriesOf(listed, directory, { real, allowedFolders }) };
  } finally {
    await handle.close();
  }
}

/**
 * The entries of the folder read at `listed`, named below `shown` (the path the picker asked for). `confined`:
 * only those whose real path is inside an allowed folder or above one.
 */
async function entriesOf(
  listed: string,
  shown: string,
  confined: { real: string; allowedFolders: readonly string[] } | null,
): Promise<BrowseEntry[]> {
  const dirents = await readdir(listed, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    throw cannotRead(shown, error);
  });
  const entries: BrowseEntry[] = [];
  for (const dirent of dirents) {
    if (dirent.name.startsWith('.') || dirent.name === 'node_modules') continue;
    const kind = dirent.isSymbolicLink() ? await targetKind(join(listed, dirent.name)) : directKind(dirent);
    if (kind === null) continue;
    if (confined) {
      const real = dirent.isSymbolicLink() ? await realpath(join(listed, dirent.name)).catch(() => null) : join(confined.real, dirent.name);
      if (real === null || !leadsToAllowed(confined.allowedFolders, real)) continue;
    }
    entries.push({ kind, name: dirent.name, path: join(shown, dirent.name) });
  }
  return entries.sort((a, b) => (a.kind !== b.kind ? (a.kind === 'directory' ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Inside an allowed folder, or above one (on the way to it). */
function leadsToAllowed(allowedFolders: readonly string[], real: string): boolean {
  return isInsideAny(allowedFolders, real) || allowedFolders.some((folder) => isInside(real, folder));
}

function cannotRead(directory: string, error: NodeJS.ErrnoException): HostCommandError {
  return new HostCommandError('forbidden', `cannot read ${directory}: ${error.code ?? error.message}`);
}

function directKind(dirent: { isFile(): boolean; isDirectory(): boolean }): BrowseEntry['kind'] | null {
  if (dirent.isDirectory()) return 'directory';
  if (dirent.isFile()) return 'file';
  return null;
}

async function targetKind(path: string): Promise<BrowseEntry['kind'] | null> {
  const target = await stat(path).catch(() => null);
  return target === null ? null : directKind(target);
}
