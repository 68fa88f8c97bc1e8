import { lastValueFrom, from } from 'rxjs';
import type { WorkspaceKind } from '../../protocol/hostGitCommands';
import { newId } from '../../protocol/ids';
import type { ThreadRecord } from '../../registry/records';
import type { EventStore } from '../../store/eventStore';
import { mustGet } from '../http/lookups';
import { openThreadOnHost, type ThreadOnHostDeps } from '../threads/openThreadOnHost';
import { announceWorkspace } from '../workspaces/worktreeLifecycle';
import { cutAtTurn } from './forkCut';
import { forkContextOf } from './forkContext';
import { forkRows } from './forkRows';
import { makeForkWorktree } from './forkWorktree';

/** What `POST /threads/:id/fork` may say (docs/fork.md); absent ones take their defaults. */
export interface ForkRequest {
  /** Default: the source's last completed turn. */
  turnId?: string | undefined;
  /** Default: the source's title and " (fork)". */
  title?: string | undefined;
  /** Default: the source's kind (a worktree source gets a worktree of its own). */
  workspace?: WorkspaceKind | undefined;
}

export type ForkDeps = ThreadOnHostDeps & { store: EventStore };

/**
 * A new thread that continues the source from the end of one of its turns (issue 39): its log starts with the
 * source's rows up to there and a `thread/forked` row, its worktree (for a worktree fork) with the files as
 * they were then, and its agent, in a fresh session, is given the earlier conversation before its first
 * prompt. The source is only read. Order: the worktree, then the rows (before the host opens the thread, so
 * its pipeline continues them), then the open; a failure at any step undoes the ones before it, so a fork
 * happens whole or not at all.
 */
export async function forkThread(deps: ForkDeps, sourceId: string, request: ForkRequest): Promise<ThreadRecord> {
  const source = await mustGet(deps.registry.threads, sourceId, 'thread');
  const cut = cutAtTurn(await deps.store.list(source.id), request.turnId);
  const context = forkContextOf(cut.rows);
  const draft: ThreadRecord = {
    id: newId('thr'),
    projectId: source.projectId,
    environmentId: source.environmentId,
    hostId: source.hostId,
    provider: source.provider,
    model: source.model,
    title: request.title ?? `${source.title} (fork)`,
    ...(source.permissionMode ? { permissionMode: source.permissionMode } : {}),
    createdAt: new Date().toISOString(),
    forkedFrom: { threadId: source.id, seq: cut.sourceSeq, turnId: cut.sourceTurnId },
    ...(context ? { pendingContext: context } : {}),
  };
  const kind = request.workspace ?? source.workspace?.kind ?? 'checkout';
  const rows = forkRows(cut, source.id, draft.id);
  if (kind === 'worktree') {
    const project = await mustGet(deps.registry.projects, source.projectId, 'project');
    const made = await makeForkWorktree(deps, project, source, draft, cut);
    const ready = await rowsThenOpen(deps, made.thread, rows, made.undo, (opened) => deps.registry.threads.put(opened));
    if (made.setup) void announceWorkspace(deps, ready, { state: 'ready', setup: made.setup }).catch(() => undefined);
    return ready;
  }
  // A checkout fork works where a checkout source does; a worktree source's checkout fork in the project's folder.
  const environmentId =
    source.workspace?.kind === 'worktree' ? (await mustGet(deps.registry.projects, source.projectId, 'project')).environmentId : source.environmentId;
  const thread = { ...draft, environmentId };
  return rowsThenOpen(deps, thread, rows, async () => undefined, (opened) => deps.registry.threads.insert(opened));
}

/** The rows first (the host's pipeline continues a thread from its stored rows), then the open, then the record. */
async function rowsThenOpen(
  deps: ForkDeps,
  thread: ThreadRecord,
  rows: Parameters<EventStore['append']>[0],
  undo: () => Promise<void>,
  keep: (thread: ThreadRecord) => Promise<ThreadRecord>,
): Promise<ThreadRecord> {
  try {
    await lastValueFrom(from(deps.store.append(rows)));
    const opened = await openThreadOnHost(deps, thread);
    return await keep({ ...thread, providerThreadId: opened.providerThreadId });
  } catch (error) {
    await deps.store.deleteThread(thread.id).catch(() => undefined);
    await undo();
    throw error;
  }
}
