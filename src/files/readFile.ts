import { realpath } from 'node:fs/promises';
import type { ReadFileRequest, ReadFileResult } from '../protocol/hostFiles';
import { HostCommandError } from '../protocol/hostErrors';
import { requireInside, rootNotAllowed, whereItLeads } from './allowedRoots';
import { isInside, isInsideAny } from './pathInside';
import { readRegularFile } from './readRegularFile';

/**
 * `host.read_file`: any regular file by absolute path, no dot or name filter (spec part 4). Text comes back
 * as UTF-8, anything else as base64 (`encoding`); `sha256` is of the bytes. Limit: FILE_READ_CONFIG. The
 * request comes checked against the contract by the daemon's dispatcher (absolute paths, no other field).
 * With `root`, the file opened must lie inside that folder (`forbidden`); with `allowedFolders` (real
 * paths of the host's allowed roots), inside one of them (`root_not_allowed`). Both judge the opened
 * descriptor, so no symlink swapped in after a check leads out.
 */
export async function readFile(request: ReadFileRequest, allowedFolders: readonly string[] | null = null): Promise<ReadFileResult> {
  const label = request.path;
  if (request.root !== undefined) {
    const root = await realpath(request.root).catch(() => {
      throw new HostCommandError('not_found', `root not found: ${request.root}`);
    });
    requireInside(allowedFolders, root, request.root);
    return readRegularFile(request.path, label, {
      resolved: true,
      verifyOpened: (opened) => {
        if (opened === null || !isInside(root, opened)) throw new HostCommandError('forbidden', `path leaves the root: ${label}`);
      },
    });
  }
  if (allowedFolders === null) return readRegularFile(request.path, label);
  // Judged before the open too, so a path outside answers the same whether or not it exists.
  requireInside(allowedFolders, await whereItLeads(request.path), label);
  return readRegularFile(request.path, label, {
    verifyOpened: (opened) => {
      if (opened === null || !isInsideAny(allowedFolders, opened)) throw rootNotAllowed(label);
    },
  });
}
