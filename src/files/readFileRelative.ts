import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { ReadFileRelativeRequest, ReadFileResult } from '../protocol/hostFiles';
import { HostCommandError } from '../protocol/hostErrors';
import { readRegularFile } from './readRegularFile';

/**
 * `host.read_file_relative`: a file below `rootPath`, never outside it (`..` and symlinks leading out are
 * `forbidden`). With `dotfiles: 'deny'` (skill files, spec part 7) a path with a dot-named segment, before
 * or after following symlinks, answers exactly like a missing file, so it cannot be probed for. The request
 * comes checked against the contract by the daemon's dispatcher: only what the schema cannot say is checked here.
 */
export async function readFileRelative(request: ReadFileRelativeRequest): Promise<ReadFileResult> {
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
  const target = await realpath(join(root, ...segments)).catch(() => {
    throw notFound();
  });
  const inside = relative(root, target);
  if (inside === '') throw new HostCommandError('not_a_file', `is a directory, not a file: ${label}`);
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw new HostCommandError('forbidden', `path leaves the root: ${label}`);
  }
  if (denyDots && inside.split(sep).some(isDotName)) throw notFound();
  return readRegularFile(target, label, notFound);
}

function isDotName(segment: string): boolean {
  return segment.startsWith('.');
}
