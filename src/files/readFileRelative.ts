import { realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { ReadFileRelativeRequest, ReadFileResult } from '../protocol/hostFiles';
import { HostCommandError } from '../protocol/hostErrors';
import { requireInside } from './allowedRoots';
import { isInside } from './pathInside';
import { readRegularFile } from './readRegularFile';

/**
 * `host.read_file_relative`: a file below `rootPath`, never outside it (`..` and symlinks leading out are
 * `forbidden`). With `dotfiles: 'deny'` (skill files, spec part 7) a path with a dot-named segment, before
 * or after following symlinks, answers exactly like a missing file, so it cannot be probed for. The request
 * comes checked against the contract by the daemon's dispatcher: only what the schema cannot say is checked here.
 * The root must lie inside `allowedFolders` (real paths of the host's allowed roots; null: anywhere). Both
 * rules are judged again on the file opened, so a symlink swapped in after the checks is not followed.
 */
export async function readFileRelative(
  request: ReadFileRelativeRequest,
  allowedFolders: readonly string[] | null = null,
): Promise<ReadFileResult> {
  const label = request.path;
  const notFound = (): HostCommandError => new HostCommandError('not_found', `file not found: ${label}`);
  if (label.startsWith('/')) {
    throw new HostCommandError('invalid_params', `host.read_file_relative: path must be relative to rootPath: ${label}`);
  }
  const segments = label.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw new HostCommandError('forbidden', `path leaves the root: ${label}`);
  const denyDots = request.dotfiles === 'deny';
  if (denyDots && segments.some(isDotName)) throw notFound();
  const root = await realpath(request.rootPath).catch(() => {
    throw new HostCommandError('not_found', `root not found: ${request.rootPath}`);
  });
  requireInside(allowedFolders, root, request.rootPath);
  const target = await realpath(join(root, ...segments)).catch(() => {
    throw notFound();
  });
  if (target === root) throw new HostCommandError('not_a_file', `is a directory, not a file: ${label}`);
  const refuseOutside = (realPath: string | null) => {
    if (realPath === null || !isInside(root, realPath)) throw new HostCommandError('forbidden', `path leaves the root: ${label}`);
    if (denyDots && relative(root, realPath).split(sep).some(isDotName)) throw notFound();
  };
  refuseOutside(target);
  return readRegularFile(target, label, { notFound, verifyOpened: refuseOutside, resolved: true });
}

function isDotName(segment: string): boolean {
  return segment.startsWith('.');
}
