import { lastValueFrom, from } from 'rxjs';
import type { WorkspaceKind } from '../../protocol/hostGitCommands';
import { newId } from '../../protocol/ids';
import type { ThreadRecord } from '../../registry/records';
import type { EventStore } from '../../store/eventStore';
import { mustGet } from '../http/lookups';
import { openThreadOnHost, type ThreadOnHostDeps } from '../threads/openThreadOnHost';
import { announceWorkspace } from '../workspaces/worktreeLifecycle';
import { workspaceOfThread } from '../workspaces/workspaceOfThread';
import { cutAtTurn } from './forkCut';
import { forkAgentSession } from './forkAgentSession';
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
 * they were then, and its agent continues from there: the agent's own fork of the session (pi, an ACP agent's
 * `session/fork`), else a fresh session given the earlier conversation before its first prompt. The source is only read. Order: the worktree and the rows side by side (both before the host opens
 * the thread, so its pipeline continues the rows), then the open; a failure at any step undoes the others,
 * so a fork happens whole or not at all.
 */
export async function forkThread(deps: ForkDeps, sourceId: string, request: ForkRequest): Promise<ThreadRecord> {
  const source = await mustGet(deps.registry.threads, sourceId, 'thread');
  const cut = cutAtTurn(await deps.store.list(source.id), request.turnId);
  // The agent's side runs beside the rest: its own fork of the session where it has one, else the conversation.
  const sourceFolder = (await workspaceOfThread(deps.registry, source)).path;
  const agent = forkAgentSession(deps.hosts, source, cut, sourceFolder || '.');
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
  };
  const kind = request.workspace ?? source.workspace?.kind ?? 'checkout';
  const rows = forkRows(cut, source.id, draft.id);
  if (kind === 'worktree') {
    const project = await mustGet(deps.registry.projects, source.projectId, 'project');
    // The worktree and the rows at once (neither needs the other); the host opens the thread once both are there.
    const [made, appended] = await Promise.allSettled([makeForkWorktree(deps, project, source, draft, cut), appendRows(deps.store, rows)]);
    if (made.status === 'rejected' || appended.status === 'rejected') {
      await deps.store.deleteThread(draft.id).catch(() => undefined);
      if (made.status === 'fulfilled') await made.value.undo();
      throw made.status === 'rejected' ? made.reason : (appended as PromiseRejectedResult).reason;
    }
    const { thread, setup, undo } = made.value;
    const ready = await openAndKeep(deps, { ...thread, ...(await agent) }, undo, (opened) => deps.registry.threads.put(opened));
    if (setup) void announceWorkspace(deps, ready, { state: 'ready', setup }).catch(() => undefined);
    return ready;
  }
  // A checkout fork works where a checkout source does; a worktree source's checkout fork in the project's folder.
  const environmentId =
    source.workspace?.kind === 'worktree'
      ? (await mustGet(deps.registry.projects, source.projectId, 'project')).environmentId
      : source.environmentId;
  await appendRows(deps.store, rows);
  return openAndKeep(
    deps,
    { ...draft, environmentId, ...(await agent) },
    async () => undefined,
    (opened) => deps.registry.threads.insert(opened),
  );
}

async function appendRows(store: EventStore, rows: Parameters<EventStore['append']>[0]): Promise<void> {
  await lastValueFrom(from(store.append(rows)));
}

/**
 * The host opens the thread (its pipeline continues the rows already stored), then the record is kept; a
 * failure drops the rows and undoes what was made for the fork, so it happened whole or not at all.
 */
async function openAndKeep(
  deps: ForkDeps,
  thread: ThreadRecord,
  undo: () => Promise<void>,
  keep: (thread: ThreadRecord) => Promise<ThreadRecord>,
): Promise<ThreadRecord> {
  try {
    const opened = await openThreadOnHost(deps, thread);
    return await keep({ ...thread, providerThreadId: opened.providerThreadId });
  } catch (error) {
    await deps.store.deleteThread(thread.id).catch(() => undefined);
    await undo();
    throw error;
  }
}
