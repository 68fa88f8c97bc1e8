import type { GitCommitResult, GitPushResult } from '../../protocol/hostShipCommands';
import type { ThreadRecord } from '../../registry/records';
import { Problem } from '../http/problem';
import { generateText } from './generateText';
import { shipFolderOf } from './shipFolder';
import type { CommitBody } from './shipSchemas';
import type { ShipDeps } from './shipDeps';
import { COMMIT_TIMEOUT_MS, PUSH_TIMEOUT_MS } from './shipTimeouts';

/**
 * `POST /threads/:id/commit`: the host commits the thread folder's changes and writes the `git/committed` row.
 * No message and no `generate` is 400 `message_required` (an empty message is what `git commit` refuses too).
 */
export async function commitThread(deps: ShipDeps, thread: ThreadRecord, body: CommitBody): Promise<GitCommitResult> {
  if (!body.message && !body.generate) {
    throw new Problem(
      400,
      'message_required',
      'a commit needs a message: send `message`, or `generate: true` to have the thread’s agent write one',
    );
  }
  const path = await shipFolderOf(deps.registry, thread);
  const message = body.message ?? (await generateText(deps, thread, 'commit'));
  return deps.hosts.call(
    thread.hostId,
    'git.commit',
    { threadId: thread.id, path, message, ...(body.paths ? { paths: body.paths } : {}) },
    { timeoutMs: COMMIT_TIMEOUT_MS },
  );
}

/** `POST /threads/:id/push`: the host pushes the thread folder's branch and writes the `git/pushed` row. */
export async function pushThread(deps: ShipDeps, thread: ThreadRecord, remote: string | undefined): Promise<GitPushResult> {
  const path = await shipFolderOf(deps.registry, thread);
  return deps.hosts.call(
    thread.hostId,
    'git.push',
    { threadId: thread.id, path, ...(remote ? { remote } : {}) },
    { timeoutMs: PUSH_TIMEOUT_MS },
  );
}
