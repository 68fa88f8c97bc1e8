import { ReadFileRequestSchema, type ReadFileRequest, type ReadFileResult } from '../protocol/hostFiles';
import { parseHostRequest } from '../protocol/parseHostRequest';
import { readRegularFile } from './readRegularFile';

/**
 * `host.read_file`: any regular file by absolute path, no dot or name filter (spec part 4). Text comes back
 * as UTF-8, anything else as base64 (`encoding`); `sha256` is of the bytes. Limit: FILE_READ_CONFIG.
 */
export async function readFile(input: ReadFileRequest): Promise<ReadFileResult> {
  const request = parseHostRequest(ReadFileRequestSchema, input, 'host.read_file');
  return readRegularFile(request.path, request.path);
}
