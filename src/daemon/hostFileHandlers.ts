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

/** The file side of a host: implemented by src/paths and src/files, injected so tests may swap one. */
export interface HostFileOperations {
  listPaths(request: ListPathsRequest): Promise<ListPathsResult>;
  listFiles(request: ListFilesRequest): Promise<ListFilesResult>;
  readFile(request: ReadFileRequest): Promise<ReadFileResult>;
  browseDirectory(request: BrowseDirectoryRequest): Promise<BrowseDirectoryResult>;
  readFileRelative(request: ReadFileRelativeRequest): Promise<ReadFileResult>;
  /** Ends what the file side keeps running (the path lister's watches); called by the daemon's close. */
  close?(): Promise<void>;
}

type HostFileHandlers = Pick<
  HostHandlers,
  'host.list_paths' | 'host.list_files' | 'host.read_file' | 'host.browse_directory' | 'host.read_file_relative' | 'host.resolve_path'
>;

export function createHostFileHandlers(files: HostFileOperations): HostFileHandlers {
  return {
    'host.list_paths': (params) => files.listPaths(params),
    'host.list_files': (params) => files.listFiles(params),
    'host.read_file': (params) => files.readFile(params),
    'host.browse_directory': (params) => files.browseDirectory(params),
    'host.read_file_relative': (params) => files.readFileRelative(params),
    'host.resolve_path': (params) => resolvePath(params.path),
  };
}

/** Follows every symlink, so the server can check the real target against its registered roots. */
export async function resolvePath(requested: string): Promise<ResolvePathResult> {
  if (requested.includes('\0')) throw new HostCommandError('invalid_params', 'path contains a NUL byte');
  if (!path.isAbsolute(requested)) throw new HostCommandError('invalid_params', 'path must be absolute');
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
