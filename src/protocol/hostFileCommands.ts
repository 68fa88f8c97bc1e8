import { z } from 'zod';
import {
  BrowseDirectoryRequestSchema,
  BrowseDirectoryResultSchema,
  ListFilesRequestSchema,
  ListFilesResultSchema,
  ListPathsRequestSchema,
  ListPathsResultSchema,
  ReadFileRelativeRequestSchema,
  ReadFileRequestSchema,
  ReadFileResultSchema,
  hostPath,
} from './hostFiles';

/** `host.resolve_path`: where a path really leads on the host (symlinks followed), for the server's root guard. */
export const ResolvePathParamsSchema = z.strictObject({ path: hostPath });
export const ResolvePathResultSchema = z.strictObject({
  realPath: z.string(),
  kind: z.enum(['file', 'directory', 'other']),
});
export type ResolvePathResult = z.infer<typeof ResolvePathResultSchema>;

/** File commands of the host-daemon contract (spec part 4, "Host daemon commands"); shapes in protocol/hostFiles. */
export const hostFileCommands = {
  'host.list_paths': { params: ListPathsRequestSchema, result: ListPathsResultSchema },
  'host.list_files': { params: ListFilesRequestSchema, result: ListFilesResultSchema },
  'host.read_file': { params: ReadFileRequestSchema, result: ReadFileResultSchema },
  'host.browse_directory': { params: BrowseDirectoryRequestSchema, result: BrowseDirectoryResultSchema },
  'host.read_file_relative': { params: ReadFileRelativeRequestSchema, result: ReadFileResultSchema },
  'host.resolve_path': { params: ResolvePathParamsSchema, result: ResolvePathResultSchema },
} as const;
