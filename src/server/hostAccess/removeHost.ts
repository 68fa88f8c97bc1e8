import type { Registry } from '../../registry/registry';
import { notFound, Problem } from '../http/problem';
import type { HostAccess } from './hostAccess';
import type { HostRevocations } from './revocations';

export interface RemoveHostDeps {
  registry: Pick<Registry, 'hosts'>;
  access: HostAccess;
  revocations: Pick<HostRevocations, 'announce'>;
  log(message: string): void;
}

/**
 * `DELETE /hosts/:id` (issue 30): the credential goes first, so no new link gets in from that moment; then
 * every link of the host closes (4006, on whichever replica holds it) and its record goes, so `GET /hosts`
 * stops listing it and its threads read `waiting-for-host`. Its projects, environments and threads stay:
 * they come back when the host enrolls again with the same host id.
 */
export async function removeHost(deps: RemoveHostDeps, hostId: string): Promise<void> {
  const record = await deps.registry.hosts.get(hostId);
  if (record?.embedded)
    throw new Problem(
      409,
      'host_is_embedded',
      `host ${hostId} is a server's own host: stop that server (or set ATS_EMBEDDED_HOST=0) instead`,
    );
  if (!record && !(await deps.access.isEnrolled(hostId))) throw notFound('host', hostId);
  await deps.access.revoke(hostId);
  await deps.revocations.announce(hostId);
  await deps.registry.hosts.remove(hostId);
  deps.log(`host ${hostId} removed: its credential is revoked and its link closed`);
}
