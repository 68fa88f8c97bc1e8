import type { PullRequest } from '../api/types';

/** Each pull request of the thread as a link with its state (open, draft, merged, closed), as the host last read it. */
export function PullRequestBadges({ pullRequests }: { pullRequests: readonly PullRequest[] }) {
  return (
    <>
      {pullRequests.map((pr) => (
        <a key={pr.url} class={`pr-badge pr-${pr.state}`} href={pr.url} target="_blank" rel="noreferrer" title={`${pr.head} → ${pr.base}`}>
          #{pr.number} {pr.state}
        </a>
      ))}
    </>
  );
}
