import { HostCommandError } from '../../protocol/hostErrors';
import type { HostHandlers } from '../hostDispatcher';

type GitHandlers = Pick<
  HostHandlers,
  'git.worktree_create' | 'git.worktree_remove' | 'git.worktree_restore' | 'git.diff' | 'git.prune_worktrees'
>;

/** The git commands of the contract (issue 38): a thread's worktree, its diff and its turn trees. */
export function createGitHandlers(_deps: { dataDir: string }): GitHandlers {
  const notYet = async (): Promise<never> => {
    throw new HostCommandError('git_failed', 'git commands are not built yet');
  };
  return {
    'git.worktree_create': notYet,
    'git.worktree_remove': notYet,
    'git.worktree_restore': notYet,
    'git.diff': notYet,
    'git.prune_worktrees': notYet,
  };
}
