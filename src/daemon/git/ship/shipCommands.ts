import type { HostHandlers } from '../../hostDispatcher';
import { commitChanges } from './commitChanges';
import { createPullRequest, viewPullRequest } from './pullRequest';
import { pushBranch } from './pushBranch';
import type { ShipDeps } from './shipDeps';

export type ShipHandlers = Pick<HostHandlers, 'git.commit' | 'git.push' | 'forge.pull_request_create' | 'forge.pull_request_view'>;

/** The ship commands (issue 39, docs/ship.md) before the git wing's `serve` wraps them (recovery first, one thread at a time). */
export const shipCommands = {
  'git.commit': commitChanges,
  'git.push': pushBranch,
  'forge.pull_request_create': createPullRequest,
  'forge.pull_request_view': viewPullRequest,
} satisfies { [M in keyof ShipHandlers]: (params: Parameters<ShipHandlers[M]>[0], deps: ShipDeps) => ReturnType<ShipHandlers[M]> };
