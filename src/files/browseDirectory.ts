import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BrowseDirectoryRequest, BrowseDirectoryResult, BrowseEntry } from '../protocol/hostFiles';
import { HostCommandError } from '../protocol/hostErrors';

/**
 * `host.browse_directory`: one level of a folder picker. Unlike the listing walk it skips every dot-named
 * entry and `node_modules`, and it follows symlinks (a linked workspace is a folder to the person picking).
 * Broken links, FIFOs, sockets and devices are left out. Directories first, then by name. The request comes
 * checked against the contract by the daemon's dispatcher (an absolute path).
 */
export async function browseDirectory(request: BrowseDirectoryRequest): Promise<BrowseDirectoryResult> {
  const directory = resolve(request.path);
  const stats = await stat(directory).catch(() => null);
  if (stats === null) throw new HostCommandError('not_found', `directory not found: ${directory}`);
  if (!stats.isDirectory()) throw new HostCommandError('not_a_directory', `not a directory: ${directory}`);
  const dirents = await readdir(directory, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    throw new HostCommandError('forbidden', `cannot read ${directory}: ${error.code ?? error.message}`);
  });
  const entries: BrowseEntry[] = [];
  for (const dirent of dirents) {
    if (dirent.name.startsWith('.') || dirent.name === 'node_modules') continue;
    const path = join(directory, dirent.name);
    const kind = dirent.isSymbolicLink() ? await targetKind(path) : directKind(dirent);
    if (kind !== null) entries.push({ kind, name: dirent.name, path });
  }
  entries.sort((a, b) => (a.kind !== b.kind ? (a.kind === 'directory' ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { path: directory, entries };
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
