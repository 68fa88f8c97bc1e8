import type { PullRequest } from '../../protocol/hostShipCommands';
import type { ThreadRecord } from '../../registry/records';
import { generateText } from './generateText';
import { keepPullRequest } from './pullRequestRecords';
import { titleAndBody } from './servicePrompts';
import { shipFolderOf } from './shipFolder';
import type { PullRequestBody } from './shipSchemas';
import type { ShipDeps } from './shipDeps';
import { PULL_REQUEST_TIMEOUT_MS } from './shipTimeouts';

/**
 * `POST /threads/:id/pull-request`: the host pushes the branch if the remote lacks its tip and opens the pull
 * request with its forge CLI, as its logged-in user; the thread keeps it (`pullRequests`) and gets `pr/opened`.
 * `generate` asks the thread's agent for title and body first (a title sent with it wins).
 */
export async function openPullRequest(
  deps: ShipDeps,
  thread: ThreadRecord,
  body: PullRequestBody,
): Promise<{ pullRequest: PullRequest; push: unknown }> {
  const path = await shipFolderOf(deps.registry, thread);
  const generated = body.generate ? titleAndBody(await generateText(deps, thread, 'pull-request', body.base)) : undefined;
  const title = body.title ?? generated?.title;
  const text = body.body ?? generated?.body;
  const answer = await deps.hosts.call(
    thread.hostId,
    'forge.pull_request_create',
    {
      threadId: thread.id,
      path,
      ...(title ? { title } : {}),
      ...(text !== undefined ? { body: text } : {}),
      ...(body.base ? { base: body.base } : {}),
      ...(body.draft ? { draft: true } : {}),
    },
    { timeoutMs: PULL_REQUEST_TIMEOUT_MS },
  );
  await keepPullRequest(deps, thread.id, answer.pullRequest, 'opened');
  return answer;
}
