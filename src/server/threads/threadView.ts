import type { HostPresence } from '../hosts/hostPresence';
import { z } from 'zod';
import { ThreadStatusSchema } from '../../protocol/threadEvents';
import { ThreadRecordSchema, type ThreadRecord } from '../../registry/records';
import type { EventStore } from '../../store/eventStore';
import type { HostDirectory } from '../hosts/hostDirectory';
import { storedThreadStatus } from './storedThreadStatus';

/** Spec 2.4: `status` from the daemon's ingest, `runtime` for display. */
export const ThreadViewSchema = ThreadRecordSchema.extend({
  status: ThreadStatusSchema,
  runtime: z.strictObject({ displayStatus: z.string(), hostReconnectGraceExpiresAt: z.number().nullable() }),
});
export type ThreadView = z.infer<typeof ThreadViewSchema>;

/**
 * While its host is connected, status comes from the host's pipeline, which knows whether a turn is open.
 * While the host is away, the rows it stored say it (they reach this server's store through the link, and
 * survive a server restart); `displayStatus` then says `host-reconnecting` during the reconnect grace,
 * `waiting-for-host` after it (src/server/hosts/hostPresence.ts).
 */
export function createThreadViewer(
  hosts: HostDirectory,
  store: EventStore,
  presence?: HostPresence,
): (thread: ThreadRecord) => Promise<ThreadView> {
  return async (thread) => {
    if (!hosts.isOnline(thread.hostId)) {
      const status = await storedThreadStatus(store, thread.id);
      const runtime = presence
        ? presence.runtimeOf(thread.hostId, false, status)
        : { displayStatus: 'waiting-for-host', hostReconnectGraceExpiresAt: null };
      return { ...thread, status, runtime };
    }
    const { status } = await hosts.call(thread.hostId, 'thread.status', { threadId: thread.id });
    return { ...thread, status, runtime: { displayStatus: status, hostReconnectGraceExpiresAt: null } };
  };
}
