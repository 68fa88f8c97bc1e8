import { GitBranch } from 'lucide-preact';
import { useState } from 'preact/hooks';
import { messageOf } from '../api/http';
import type { PullRequest, Thread } from '../api/types';
import { pushThread } from './api';
import { CommitDialog } from './CommitDialog';
import { PullRequestBadges } from './PullRequestBadges';
import { PullRequestDialog } from './PullRequestDialog';

type Open = 'menu' | 'commit' | 'pull-request' | null;

/**
 * The thread header's Git menu (issue 39): Commit…, Push, Open pull request…, and the thread's pull requests
 * as badges with their state. What happened (or why not) is said beside it; each action is also a row of the
 * thread (`git/committed`, `git/pushed`, `pr/opened`).
 */
export function GitMenu({ thread }: { thread: Thread }) {
  const [open, setOpen] = useState<Open>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [pushing, setPushing] = useState(false);
  const [opened, setOpened] = useState<PullRequest[]>([]);
  const known = thread.pullRequests ?? [];
  const pullRequests = [...known, ...opened.filter((pr) => !known.some((k) => k.url === pr.url))];
  const push = async () => {
    setOpen(null);
    setPushing(true);
    setSaid(null);
    try {
      const pushed = await pushThread(thread.id);
      setSaid(pushed.pushed ? `Pushed ${pushed.branch} to ${pushed.remote}` : `${pushed.remote} has ${pushed.branch} already`);
    } catch (failure) {
      setSaid(messageOf(failure));
    } finally {
      setPushing(false);
    }
  };
  if (thread.archived) return <PullRequestBadges pullRequests={pullRequests} />;
  return (
    <div class="git-menu">
      <PullRequestBadges pullRequests={pullRequests} />
      <button
        type="button"
        class="small secondary with-icon"
        aria-haspopup="menu"
        aria-expanded={open === 'menu'}
        disabled={pushing}
        onClick={() => setOpen(open === 'menu' ? null : 'menu')}
      >
        <GitBranch size={15} aria-hidden="true" />
        <span class="button-label">{pushing ? 'Pushing…' : 'Git'}</span>
      </button>
      {open === 'menu' && (
        <div class="git-menu-items" role="menu" onKeyDown={(event) => event.key === 'Escape' && setOpen(null)}>
          <button type="button" role="menuitem" onClick={() => setOpen('commit')}>
            Commit…
          </button>
          <button type="button" role="menuitem" onClick={() => void push()}>
            Push
          </button>
          <button type="button" role="menuitem" onClick={() => setOpen('pull-request')}>
            Open pull request…
          </button>
        </div>
      )}
      {said && (
        <span class="git-said muted" role="status">
          {said}
        </span>
      )}
      {open === 'commit' && (
        <CommitDialog threadId={thread.id} branch={thread.workspace.branch} onDone={setSaid} onClose={() => setOpen(null)} />
      )}
      {open === 'pull-request' && (
        <PullRequestDialog
          threadId={thread.id}
          onOpened={(pr) => {
            setOpened([...opened, pr]);
            setSaid(`Opened #${pr.number}`);
          }}
          onClose={() => setOpen(null)}
        />
      )}
    </div>
  );
}
