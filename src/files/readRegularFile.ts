import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { openedRealPath } from './openedPath';
import type { ReadFileResult } from '../protocol/hostFiles';
import { FILE_READ_CONFIG } from './fileReadConfig';
import { HostCommandError } from '../protocol/hostErrors';
import { readToEnd } from './readToEnd';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export interface ReadOptions {
  /** The refusal of a missing file (read_file_relative's dot rule answers some present files with it too). */
  notFound?: () => HostCommandError;
  /**
   * Judges where the opened file really is (its descriptor's path, see openedPath) and throws to refuse it,
   * before a byte is read. Null when the system could not say (a swap caught on a host without procfs).
   */
  verifyOpened?: (realPath: string | null) => void;
  /**
   * The path is a real path (resolved by the caller): a last name that is a link now was swapped in since,
   * so it is not opened at all (O_NOFOLLOW; answered like a missing file), not even to be judged.
   */
  resolved?: boolean;
}

/**
 * Reads one regular file (symlinks followed) after checking what it is: a directory, FIFO, socket or
 * device is refused from its stat, without opening it, so a FIFO cannot hang the daemon. The open uses
 * O_NONBLOCK as well, for a file swapped for a FIFO between the stat and the open. A caller confining the
 * read to a folder judges the file opened, not the path checked before (`verifyOpened`): a symlink
 * swapped in between is caught there (issue 30).
 */
export async function readRegularFile(absolutePath: string, label: string, options: ReadOptions = {}): Promise<ReadFileResult> {
  const notFound = options.notFound ?? (() => new HostCommandError('not_found', `file not found: ${label}`));
  const maxBytes = FILE_READ_CONFIG.maxReadBytes;
  const stats = await stat(absolutePath).catch((error: NodeJS.ErrnoException) => {
    throw refusalFor(error, label, notFound);
  });
  if (stats.isDirectory()) throw new HostCommandError('not_a_file', `is a directory, not a file: ${label}`);
  if (!stats.isFile()) throw new HostCommandError('not_a_file', `not a regular file (FIFO, socket or device): ${label}`);
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | (options.resolved ? constants.O_NOFOLLOW : 0);
  const handle = await open(absolutePath, flags).catch((error: NodeJS.ErrnoException) => {
    throw refusalFor(error, label, notFound);
  });
  try {
    if (options.verifyOpened) options.verifyOpened(await openedRealPath(handle, absolutePath));
    const opened = await handle.stat();
    if (!opened.isFile()) throw new HostCommandError('not_a_file', `not a regular file: ${label}`);
    // A size over the cap is refused without reading. A size under it proves nothing, so the cap also
    // applies to the bytes read: procfs reports 0 for any content, and a file may grow during the read.
    if (opened.size > maxBytes) throw tooLarge(label, opened.size, maxBytes);
    const bytes = await readToEnd(handle, opened.size, maxBytes).catch((error: NodeJS.ErrnoException) => {
      throw refusalFor(error, label, notFound);
    });
    if (bytes.length > maxBytes) throw tooLarge(label, bytes.length, maxBytes);
    return encode(bytes);
  } finally {
    await handle.close();
  }
}

function encode(bytes: Buffer): ReadFileResult {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const text = bytes.includes(0) ? null : decodeUtf8(bytes);
  if (text !== null) return { content: text, encoding: 'utf8', sizeBytes: bytes.length, sha256 };
  return { content: bytes.toString('base64'), encoding: 'base64', sizeBytes: bytes.length, sha256 };
}

function decodeUtf8(bytes: Buffer): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/** `size` is the stat size, or the bytes read (`maxBytes + 1`: reading stops there) when the stat said less. */
function tooLarge(label: string, size: number, maxBytes: number): HostCommandError {
  return new HostCommandError('too_large', `file is over the ${maxBytes}-byte read limit (${size} bytes or more): ${label}`, {
    sizeBytes: size,
    maxReadBytes: maxBytes,
  });
}

function refusalFor(error: NodeJS.ErrnoException, label: string, notFound: () => HostCommandError): HostCommandError {
  if (error instanceof HostCommandError) return error;
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.code === 'ELOOP') return notFound();
  if (error.code === 'EACCES' || error.code === 'EPERM') return new HostCommandError('forbidden', `permission denied: ${label}`);
  if (error.code === 'EISDIR') return new HostCommandError('not_a_file', `is a directory, not a file: ${label}`);
  // Within MAX_PATH_BYTES yet too long for this host's file system (macOS: PATH_MAX 1024).
  if (error.code === 'ENAMETOOLONG') return new HostCommandError('invalid_params', `the path is too long for this host: ${label}`);
  return new HostCommandError('not_found', `cannot read ${label}: ${error.code ?? error.message}`);
}
