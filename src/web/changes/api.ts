import { answerOf, client } from '../api/http';
import { DiffTextReader } from './diffTextReader';
import type { CommentTarget, DiffFile, DiffScope, GitDiff, ReviewComment } from './types';

/** The review routes (issue 38), through the one typed client. */
const thread = (id: string) => ({ params: { path: { id } } });
const comment = (id: string, commentId: string) => ({ params: { path: { id, commentId } } });

/**
 * The whole diff of a scope; `onFiles` is told the files read so far each time more arrive: the server writes
 * them while the host still diffs, so the first screen is drawn long before a big change's last file is read.
 */
export async function readDiff(threadId: string, scope: DiffScope, onFiles: (filesSoFar: readonly DiffFile[]) => void): Promise<GitDiff> {
  const body = await answerOf(
    client.GET('/api/v1/threads/{id}/diff', { params: { path: { id: threadId }, query: { scope } }, parseAs: 'stream' }),
  );
  const reader = new DiffTextReader();
  const decoder = new TextDecoder();
  const chunks = (body as ReadableStream<Uint8Array>).getReader();
  let painted = false;
  for (let read = await chunks.read(); !read.done; read = await chunks.read()) {
    // The first screen is painted before the rest is read: reading a big change's megabytes as they come
    // (or all at once) would hold up that first frame (bench:changes). What arrives meanwhile waits.
    if (reader.push(decoder.decode(read.value, { stream: true }), painted ? Infinity : FIRST_SCREEN_FILES).length === 0) continue;
    onFiles(reader.files);
    if (painted) continue;
    await nextPaint();
    painted = true;
    if (reader.push('').length > 0) onFiles(reader.files);
  }
  reader.push(decoder.decode());
  return reader.end();
}

/** Oldest first; a draft whose line changed since reads `stale`, a sent one `sent`. */
export function listReviewComments(threadId: string): Promise<ReviewComment[]> {
  return answerOf(client.GET('/api/v1/threads/{id}/review-comments', thread(threadId)));
}

/** 201 with the comment as a draft, its snippet the line as the server read it (400 `line_not_in_diff`). */
export function addReviewComment(threadId: string, target: CommentTarget, text: string): Promise<ReviewComment> {
  return answerOf(client.POST('/api/v1/threads/{id}/review-comments', { ...thread(threadId), body: { ...target, text } }));
}

export function editReviewComment(threadId: string, commentId: string, text: string): Promise<ReviewComment> {
  return answerOf(client.PATCH('/api/v1/threads/{id}/review-comments/{commentId}', { ...comment(threadId, commentId), body: { text } }));
}

export function deleteReviewComment(threadId: string, commentId: string): Promise<unknown> {
  return answerOf(client.DELETE('/api/v1/threads/{id}/review-comments/{commentId}', comment(threadId, commentId))).then(() => ({}));
}

/** Files read before the first screen is drawn: more than a screen holds. */
const FIRST_SCREEN_FILES = 20;

/** After the next frame is painted. */
function nextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}
