import path from 'node:path';
import type { HostDirectory } from '../hosts/hostDirectory';
import { Problem } from '../http/problem';
import { refuseLongPath } from './rootGuard';

/**
 * A project or environment folder must be an absolute directory on its host, checked by the host itself
 * (the server may not share a filesystem with it).
 */
export async function checkRootOnHost(hosts: HostDirectory, hostId: string, folder: string): Promise<string> {
  if (folder.includes('\0') || !path.posix.isAbsolute(folder))
    throw new Problem(400, 'invalid_path', 'the folder must be an absolute path');
  refuseLongPath(folder);
  const normalized = path.posix.normalize(folder).replace(/(.)\/$/, '$1');
  const resolved = await hosts.call(hostId, 'host.resolve_path', { path: normalized }).catch((error: unknown) => {
    if (error instanceof Problem && error.code === 'not_found')
      throw new Problem(400, 'folder_not_found', `${folder} does not exist on host ${hostId}`);
    throw error;
  });
  if (resolved.kind !== 'directory') throw new Problem(409, 'not_a_directory', `${folder} is not a directory on host ${hostId}`);
  return normalized;
}
