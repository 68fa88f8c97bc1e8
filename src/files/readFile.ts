import type { ReadFileRequest, ReadFileResult } from '../protocol/hostFiles';
import { readRegularFile } from './readRegularFile';

/**
 * `host.read_file`: any regular file by absolute path, no dot or name filter (spec part 4). Text comes back
 * as UTF-8, anything else as base64 (`encoding`); `sha256` is of the bytes. Limit: FILE_READ_CONFIG. The
 * request comes checked against the contract by the daemon's dispatcher (an absolute path, no other field).
 */
export async function readFile(request: ReadFileRequest): Promise<ReadFileResult> {
  return readRegularFile(request.path, request.path);
}
