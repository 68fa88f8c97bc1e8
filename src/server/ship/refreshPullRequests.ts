import { errorMessageOf } from '../../protocol/errorMessages';
import { keepPullRequest } from './pullRequestRecords';
import { shipFolderOf } from './shipFolder';
import type { ShipDeps } from './shipDeps';

/** Pull requests still open are asked for their state this often (vibe-kanban polls every 60 s too). */
export const PR_REFRESH_INTERVAL_MS = 60_000;

/**
 * Every minute, each open (or draft) pull request a thread keeps is read again on the thread's host
 * (`forge.pull_request_view`: `gh pr view --json` there, with its credentials); a changed state is kept on the
 * thread and written as `pr/state`. Merged and closed ones are read no more. A host that is away, or a forge
 * that fails, is skipped until the next round.
 */
export function startPullRequestRefresh(deps: ShipDeps, intervalMs = PR_REFRESH_INTERVAL_MS): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return; // a slow round is not stacked on by the next
    running = true;
    void refreshPullRequests(deps).finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** One round of the refresh; answers how many pull requests changed state. */
export async function refreshPullRequests(deps: ShipDeps): Promise<number> {
  let changed = 0;
  const threads = (await deps.registry.threads.find()).filter((thread) => thread.pullRequests?.some(isOpen));
  for (const thread of threads) {
    if (!deps.hosts.isOnline(thread.hostId)) continue;
    for (const known of thread.pullRequests!.filter(isOpen)) {
      try {
        const path = await shipFolderOf(deps.registry, thread);
        const now = await deps.hosts.call(thread.hostId, 'forge.pull_request_view', { threadId: thread.id, path, url: known.url });
        if (now.state === known.state) continue;
        await keepPullRequest(deps, thread.id, now, 'refreshed');
        changed += 1;
      } catch (error) {
        deps.log(`thread ${thread.id}: pull request ${known.url} not refreshed (${errorMessageOf(error)})`);
      }
    }
  }
  return changed;
}

const isOpen = (pr: { state: string }) => pr.state === 'open' || pr.state === 'draft';
