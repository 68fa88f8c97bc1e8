import {
  asyncScheduler,
  catchError,
  defer,
  map,
  of,
  tap,
  throwError,
  timeout,
  type Observable,
  type OperatorFunction,
  type SchedulerLike,
} from 'rxjs';
import { DeliveryFailure, failureOfError, failureOfStatus } from './deliveryFailure';
import type { DeliveryWatch } from './deliveryWatch';
import type { PendingNotification } from './describeMoments';
import type { PostWebhook } from './postWithHttp';
import { queueDroppingOldest } from './queueDroppingOldest';
import { retryWithBackoff } from './retryWithBackoff';
import { webhookRequestOf } from './webhookRequest';
import type { WebhookNotification } from './webhookNotification';

export interface DeliverWebhookDeps {
  url: string;
  /** HMAC key of the signature header; unset: unsigned. */
  secret?: string;
  post: PostWebhook;
  /** First retry wait, doubling up to `retryMaxMs`; an event still unsent `giveUpMs` after it was queued is dropped. */
  retryInitialMs: number;
  retryMaxMs: number;
  giveUpMs: number;
  /** One POST without an answer this long failed (and is retried). */
  timeoutMs: number;
  /** Notifications waiting at most; beyond, the oldest is dropped. */
  queueMax: number;
  watch: DeliveryWatch;
  scheduler?: SchedulerLike;
}

export type DeliveryOutcome =
  | { notification: WebhookNotification; delivered: true; attempts: number }
  | { notification: WebhookNotification; delivered: false; attempts: number; reason: string };

/**
 * Sends each notification as one POST, one at a time and in order (a receiver sees events as they happened),
 * retrying a failed POST with exponential backoff until it lands or its time is up. Every outcome is a value:
 * a receiver that never answers costs its own events, never the stream. A slow receiver slows only this queue:
 * it is fed from rows already stored, so a thread's intake never waits on it.
 *
 * ```
 * pending:  -a-b------       a's first POST fails, its retry lands
 * result:   -----A--B-       A: {delivered: true, attempts: 2}
 * ```
 */
export function deliverWebhook(deps: DeliverWebhookDeps): OperatorFunction<PendingNotification, DeliveryOutcome> {
  return queueDroppingOldest((pending: PendingNotification) => deliverOne(pending, deps), {
    capacity: deps.queueMax,
    dropped: (pending) => deps.watch.dropped(pending.notification),
    idle: () => deps.watch.idle(),
  });
}

function deliverOne({ notification, queuedAt }: PendingNotification, deps: DeliverWebhookDeps): Observable<DeliveryOutcome> {
  const scheduler = deps.scheduler ?? asyncScheduler;
  const deadline = queuedAt + deps.giveUpMs;
  const request = webhookRequestOf(notification, deps.url, deps.secret);
  let attempts = 0;
  const gaveUp = (failure: DeliveryFailure): Observable<DeliveryOutcome> => {
    deps.watch.gaveUp(notification, failure);
    return of({ notification, delivered: false, attempts, reason: failure.message });
  };
  // Waited past its time in the queue (a long outage): stale news is not sent.
  if (scheduler.now() > deadline) return defer(() => gaveUp(new DeliveryFailure(`older than ${deps.giveUpMs} ms`, false)));
  const attempt = defer(() => {
    attempts++;
    return deps.post(request);
  }).pipe(
    timeout({
      first: deps.timeoutMs,
      scheduler,
      with: () => throwError(() => new DeliveryFailure(`no answer in ${deps.timeoutMs} ms`, true)),
    }),
    map((status) => {
      const failure = failureOfStatus(status);
      if (failure) throw failure;
    }),
    catchError((error: unknown) => throwError(() => failureOfError(error))),
    tap({ error: (failure: DeliveryFailure) => deps.watch.attemptFailed(failure) }),
  );
  return attempt.pipe(
    retryWithBackoff(
      {
        initialDelayMs: deps.retryInitialMs,
        maxDelayMs: deps.retryMaxMs,
        deadline,
        retryable: (failure) => failureOfError(failure).retryable,
      },
      scheduler,
    ),
    map((): DeliveryOutcome => {
      deps.watch.delivered(notification);
      return { notification, delivered: true, attempts };
    }),
    catchError((failure: unknown) => gaveUp(failureOfError(failure))),
  );
}
