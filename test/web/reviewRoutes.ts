import type { BrowserContext, Route } from 'playwright-core';
import { from, lastValueFrom } from 'rxjs';
import type { NewThreadEvent } from '../../src/protocol/threadEvents';
import { promptWithReview } from '../../src/protocol/reviewBlock';
import { withReviewComments } from '../../src/turns/userMessages';
import { publishingStore } from '../../src/server/sse/publishingStore';
import type { RunningServer } from '../../src/server/startServer';
import type { GitDiff, ReviewComment } from '../../src/web/changes/types';
import type { SeenCall } from './lifecycleRoutes';

const REVIEW = /^\/api\/v1\/threads\/([^/]+)\/(diff|review-comments|messages)(?:\/([^/]+))?$/;

/**
 * Issue 38's routes answered at the page's edge, as the issue gives them, over a real server: `GET …/diff`
 * answers `diffOf(thread, scope)`; the review comments live in a list here (POST 201 as a draft with its snippet,
 * GET, PATCH, DELETE 204); `POST …/messages` with `reviewCommentIds` marks those sent and appends the turn's
 * `userMessage` row with the prompt and the server's review block (through the store that publishes to SSE). `seen` records what the page
 * sent. changesLive.test.ts runs the loop against the server's own routes.
 */
export async function serveReview(
  context: BrowserContext,
  server: RunningServer,
  diffOf: (threadId: string, scope: string) => GitDiff | undefined,
) {
  const seen: SeenCall[] = [];
  const comments: ReviewComment[] = [];
  const store = publishingStore(server.store, server.hub);
  const json = (route: Route, status: number, body: unknown) =>
    route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
  let turns = 0;

  const handle = async (route: Route) => {
    const request = route.request();
    const url = new URL(request.url());
    const [, rawId, resource, commentId] = REVIEW.exec(url.pathname)!;
    const threadId = decodeURIComponent(rawId!);
    const method = request.method();
    seen.push({ method, path: `${url.pathname}${url.search}`, body: request.postDataJSON() });
    if (resource === 'diff') {
      const diff = diffOf(threadId, url.searchParams.get('scope') ?? '');
      if (!diff) return json(route, 400, { code: 'scope_unavailable', detail: 'No such scope here.' });
      // `files` first, as the server writes a diff the host answers in parts (src/server/review/streamedDiff.ts).
      const { files, ...rest } = diff;
      return json(route, 200, { files, ...rest });
    }
    if (resource === 'review-comments') {
      if (method === 'GET') return json(route, 200, comments);
      if (method === 'POST') {
        const body = request.postDataJSON() as Omit<ReviewComment, 'id' | 'state' | 'snippet'>;
        const comment: ReviewComment = {
          ...body,
          id: `rc_${comments.length + 1}`,
          snippet: snippetOf(diffOf(threadId, 'uncommitted'), body.path, body.line),
          state: 'draft',
        };
        comments.push(comment);
        return json(route, 201, comment);
      }
      const at = comments.findIndex((comment) => comment.id === commentId);
      if (method === 'DELETE') return (comments.splice(at, 1), route.fulfill({ status: 204 }));
      comments[at] = { ...comments[at]!, text: (request.postDataJSON() as { text: string }).text };
      return json(route, 200, comments[at]);
    }
    const { prompt, reviewCommentIds = [] } = request.postDataJSON() as { prompt: string; reviewCommentIds?: string[] };
    const sent = comments.filter((comment) => reviewCommentIds.includes(comment.id));
    sent.forEach((comment) => (comment.state = 'sent'));
    await appendPrompt(store, threadId, `turn-review-${++turns}`, prompt, sent);
    return json(route, 202, { threadId, followUp: false });
  };
  await context.route((url) => REVIEW.test(url.pathname), handle);
  return { seen, comments };
}

/** The line's text on the new side, as the server reads the snippet. */
function snippetOf(diff: GitDiff | undefined, path: string, line: number): string {
  for (const hunk of diff?.files.find((file) => file.path === path)?.hunks ?? []) {
    let at = hunk.newStart;
    for (const each of hunk.lines) {
      if (each.kind === 'del') continue;
      if (at++ === line) return each.text;
    }
  }
  return '';
}

/** A turn whose `userMessage` records the review comments it carried, as the server appends it. */
async function appendPrompt(
  store: ReturnType<typeof publishingStore>,
  threadId: string,
  turnId: string,
  prompt: string,
  sent: ReviewComment[],
): Promise<void> {
  const row = (type: string, data: Record<string, unknown>) =>
    ({
      threadId,
      type,
      turnId,
      scope: { kind: 'turn', turnId },
      data: { providerThreadId: threadId, ...data },
    }) as unknown as NewThreadEvent;
  // The server's own block after the prompt, read back into `reviewComments` as the turn rules do.
  const text = promptWithReview(prompt, sent);
  const item = withReviewComments({ type: 'userMessage', id: `${turnId}-user`, content: [{ type: 'text', text }] });
  await lastValueFrom(
    from(
      store.append([
        row('turn/started', { origin: 'client' }),
        row('item/completed', { item }),
        row('turn/completed', { status: 'completed' }),
      ]),
    ),
  );
}
