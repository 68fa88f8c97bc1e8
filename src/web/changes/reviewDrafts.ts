import { computed, signal, type ReadonlySignal } from '@preact/signals';
import { messageOf } from '../api/http';
import { addReviewComment, deleteReviewComment, editReviewComment, listReviewComments } from './api';
import type { CommentTarget, ReviewComment } from './types';

/**
 * A thread's review comments not sent yet (issue 38): written on a diff line, shown as chips above the prompt
 * box, and sent with the next prompt (`reviewCommentIds`). A comment the server marked `stale` (its line
 * changed since) stays listed, marked, and is not sent.
 */
export interface ReviewDrafts {
  comments: ReadonlySignal<ReviewComment[]>;
  /** The ids the next prompt carries: the drafts, not the stale ones. */
  sendable: ReadonlySignal<string[]>;
  problem: ReadonlySignal<string | null>;
  refresh(): Promise<void>;
  add(target: CommentTarget, text: string): Promise<ReviewComment | undefined>;
  edit(commentId: string, text: string): Promise<void>;
  remove(commentId: string): Promise<void>;
  /** After a prompt carried them: the server marks them sent, so they leave the chips. */
  sent(): void;
}

/** A lenient read of the list: an array, or `{ comments: [...] }`; sent comments are the transcript's now. */
function unsentOf(answer: unknown): ReviewComment[] {
  const list = Array.isArray(answer) ? answer : ((answer as { comments?: unknown } | null)?.comments ?? []);
  return (list as ReviewComment[]).filter((comment) => comment.state !== 'sent');
}

export function createReviewDrafts(threadId: string): ReviewDrafts {
  const comments = signal<ReviewComment[]>([]);
  const problem = signal<string | null>(null);
  const attempt = async <T>(call: () => Promise<T>): Promise<T | undefined> => {
    try {
      const answer = await call();
      problem.value = null;
      return answer;
    } catch (failure) {
      problem.value = messageOf(failure);
      return undefined;
    }
  };
  const refresh = async () => {
    const answer = await attempt(() => listReviewComments(threadId));
    if (answer !== undefined) comments.value = unsentOf(answer);
  };
  return {
    comments,
    sendable: computed(() => comments.value.filter((comment) => comment.state === 'draft').map((comment) => comment.id)),
    problem,
    refresh,
    async add(target, text) {
      const comment = await attempt(() => addReviewComment(threadId, target, text));
      if (comment) comments.value = [...comments.value, comment];
      return comment;
    },
    async edit(commentId, text) {
      const comment = await attempt(() => editReviewComment(threadId, commentId, text));
      if (comment) comments.value = comments.value.map((each) => (each.id === commentId ? comment : each));
    },
    async remove(commentId) {
      const done = await attempt(() => deleteReviewComment(threadId, commentId));
      if (done !== undefined) comments.value = comments.value.filter((each) => each.id !== commentId);
    },
    sent() {
      const sentIds = new Set(comments.value.filter((comment) => comment.state === 'draft').map((comment) => comment.id));
      comments.value = comments.value.filter((comment) => !sentIds.has(comment.id));
      void refresh();
    },
  };
}
