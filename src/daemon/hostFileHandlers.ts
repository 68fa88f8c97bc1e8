import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { HostCommandError } from '../protocol/hostErrors';
import type {
  BrowseDirectoryRequest,
  BrowseDirectoryResult,
  ListFilesRequest,
  ListFilesResult,
  ListPathsRequest,
  ListPathsResult,
  ReadFileRelativeRequest,
  ReadFileRequest,
  ReadFileResult,
} from '../protocol/hostFiles';
import type { HostHandlers } from './hostDispatcher';
import type { ResolvePathResult } from '../protocol/hostFileCommands';
import { EVERY_FOLDER, requireInside, type AllowedRoots } from '../files/allowedRoots';

/**
 * The file side of a host: implemented by src/paths and src/files, injected so tests may swap one. The reads
 * and the browse take the real paths of the host's allowed roots (null: every folder) and judge the file or
 * folder they open against them, since only the opened descriptor says where a swapped symlink led.
 */
export interface HostFileOperations {
  listPaths(request: ListPathsRequest): Promise<ListPathsResult>;
  listFiles(request: ListFilesRequest): Promise<ListFilesResult>;
  readFile(request: ReadFileRequest, allowedFolders: readonly string[] | null): Promise<ReadFileResult>;
  browseDirectory(request: BrowseDirectoryRequest, allowedFolders: readonly string[] | null): Promise<BrowseDirectoryResult>;
  readFileRelative(request: ReadFileRelativeRequest, allowedFolders: readonly string[] | null): Promise<ReadFileResult>;
  /** Ends what the file side keeps running (the path lister's watches); called by the daemon's close. */
  close?(): Promise<void>;
}

type HostFileHandlers = Pick<
  HostHandlers,
  'host.list_paths' | 'host.list_files' | 'host.read_file' | 'host.browse_directory' | 'host.read_file_relative' | 'host.resolve_path'
>;

/** The file commands, inside the folders the host's owner allows (`allowed`; every folder by default). */
export function createHostFileHandlers(files: HostFileOperations, allowed: AllowedRoots = EVERY_FOLDER): HostFileHandlers {
  return {
    'host.list_paths': (params) => listedInside(allowed, params.path, () => files.listPaths(params)),
    'host.list_files': (params) => listedInside(allowed, params.path, () => files.listFiles(params)),
    'host.read_file': async (params) => files.readFile(params, await allowed.realFolders()),
    'host.browse_directory': async (params) => files.browseDirectory(params, await allowed.realFolders()),
    'host.read_file_relative': async (params) => files.readFileRelative(params, await allowed.realFolders()),
    'host.resolve_path': async ({ path: requested }) => {
      refuseMalformed(requested);
      // Judged before resolving too, so a path outside answers `root_not_allowed` whether or not it exists.
      await allowed.require(requested);
      const resolved = await resolvePath(requested);
      requireInside(await allowed.realFolders(), resolved.realPath, requested);
      return resolved;
    },
  };
}

/**
 * A listing walks below its root without following links (src/paths/walk), so only the root can lead out:
 * judged before the walk and again after it, so a root swapped for a link outside meanwhile answers
 * `root_not_allowed` rather than the names it led to.
 */
async function listedInside<T>(allowed: AllowedRoots, root: string, list: () => Promise<T>): Promise<T> {
  await allowed.require(root);
  const listing = await list();
  await allowed.require(root);
  return listing;
}

function refuseMalformed(requested: string): void {
  if (requested.includes('\0')) throw new HostCommandError('invalid_params', 'path contains a NUL byte');
  if (!path.isAbsolute(requested)) throw new HostCommandError('invalid_params', 'path must be absolute');
}

/** Follows every symlink, so the server can check the real target against its registered roots. */
async function resolvePath(requested: string): Promise<ResolvePathResult> {
  try {
    const realPath = await realpath(requested);
    const info = await stat(realPath);
    return { realPath, kind: info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other' };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new HostCommandError('not_found', `no such path: ${requested}`);
    if (code === 'EACCES' || code === 'EPERM') throw new HostCommandError('forbidden', `not allowed to read ${requested}`);
    // Within the contract's MAX_PATH_BYTES yet too long for this host's file system (macOS: PATH_MAX 1024).
    if (code === 'ENAMETOOLONG') throw new HostCommandError('invalid_params', `the path is too long for this host: ${requested}`);
    throw error;
  }
}
