import {
  asyncScheduler,
  catchError,
  concatMap,
  EMPTY,
  from,
  take,
  type ObservableInput,
  type OperatorFunction,
  type SchedulerLike,
} from 'rxjs';
import type { NotableMoment } from './moment';
import type { WebhookNotification } from './webhookNotification';

/** What a notification says of its thread, read when it is sent (the title may have changed since). */
export interface ThreadFacts {
  title: string;
  projectId: string;
}

export interface DescribeMomentsDeps {
  /** The thread's record; undefined once deleted (its moments are dropped). Must not fail: answer undefined. */
  threadOf(threadId: string): ObservableInput<ThreadFacts | undefined>;
  /** The page's address without a trailing slash (`ATS_PUBLIC_URL`, else the listening URL). */
  pageUrl(): string;
  scheduler?: SchedulerLike;
}

/** A notification waiting to be sent, with when it was queued (its retries end a bounded time after). */
export interface PendingNotification {
  notification: WebhookNotification;
  queuedAt: number;
}

/**
 * Each moment with its thread's title and project, and the link to the page at that thread (the page routes
 * `#/threads/<id>`, src/web/state/route.ts). In order: a moment waits for the lookup of the one before it.
 *
 * ```
 * moments:  -m-d-   d: a deleted thread's moment
 * result:   -n---
 * ```
 */
export function describeMoments(deps: DescribeMomentsDeps): OperatorFunction<NotableMoment, PendingNotification> {
  const scheduler = deps.scheduler ?? asyncScheduler;
  return concatMap((moment) =>
    from(deps.threadOf(moment.row.threadId)).pipe(
      take(1),
      concatMap((thread) => (thread ? [{ notification: notificationOf(moment, thread, deps.pageUrl()), queuedAt: scheduler.now() }] : [])),
      // One failed lookup costs its own notice, never the stream.
      catchError(() => EMPTY),
    ),
  );
}

export function notificationOf(moment: NotableMoment, thread: ThreadFacts, pageUrl: string): WebhookNotification {
  const { row, event, summary, approvalId } = moment;
  const url = `${pageUrl}/#/threads/${encodeURIComponent(row.threadId)}`;
  const status = row.type === 'turn/completed' ? row.data.status : undefined;
  return {
    event,
    threadId: row.threadId,
    title: thread.title,
    projectId: thread.projectId,
    seq: row.seq,
    ...(row.turnId ? { turnId: row.turnId } : {}),
    ...(status ? { status } : {}),
    ...(approvalId ? { approvalId } : {}),
    summary,
    text: `${thread.title}: ${HEADLINES[event](status)}: ${summary} ${url}`,
    url,
    createdAt: row.createdAt,
  };
}

const HEADLINES: Record<WebhookNotification['event'], (status?: string) => string> = {
  'turn.completed': () => 'turn completed',
  'turn.failed': (status) => (status === 'interrupted' ? 'turn interrupted' : 'turn failed'),
  'approval.requested': () => 'waiting for your answer',
};
