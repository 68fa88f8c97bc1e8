import type { PullRequest } from '../../protocol/hostShipCommands';
import { shipRowFrame, SHIP_ROW_TYPE } from '../../protocol/shipRows';
import { changeThreadIfLive } from '../threads/threadChanges';
import type { ShipDeps } from './shipDeps';

/**
 * Keeps a pull request on its thread's record (one entry per URL, the newest state) and writes the row that
 * says so: `pr/opened` for a new one, `pr/state` when a known one changed state. As the thread's owner
 * (threadChanges.ts), so a refresh never writes over a newer record.
 */
export async function keepPullRequest(
  deps: ShipDeps,
  threadId: string,
  pullRequest: PullRequest,
  why: 'opened' | 'refreshed',
): Promise<void> {
  await changeThreadIfLive(deps.registry, threadId, async (thread) => {
    const known = thread.pullRequests ?? [];
    const previous = known.find((pr) => pr.url === pullRequest.url);
    if (previous && previous.state === pullRequest.state && why === 'refreshed') return;
    const pullRequests = previous ? known.map((pr) => (pr.url === pullRequest.url ? pullRequest : pr)) : [...known, pullRequest];
    await deps.registry.threads.put({ ...thread, pullRequests });
    if (!deps.hosts.isOnline(thread.hostId)) return;
    const frame =
      previous && why === 'refreshed'
        ? shipRowFrame(threadId, SHIP_ROW_TYPE.prState, {
            url: pullRequest.url,
            number: pullRequest.number,
            state: pullRequest.state,
            previous: previous.state,
          })
        : shipRowFrame(threadId, SHIP_ROW_TYPE.prOpened, { pullRequest });
    await deps.hosts.call(thread.hostId, 'thread.ingest', { frame });
  });
}
