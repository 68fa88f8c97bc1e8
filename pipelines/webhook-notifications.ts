import { pipe, type OperatorFunction } from 'rxjs';
import { deliverWebhook, type DeliverWebhookDeps, type DeliveryOutcome } from '../src/notifications/deliverWebhook';
import { describeMoments, type DescribeMomentsDeps } from '../src/notifications/describeMoments';
import { dropAnsweredQuestions } from '../src/notifications/dropAnsweredQuestions';
import { pickMoments } from '../src/notifications/pickMoments';
import type { StoredThreadEvent } from '../src/store/eventStore';

export interface WebhookNotificationsDeps extends DescribeMomentsDeps, DeliverWebhookDeps {
  /** A question answered within this time (the policy's answers are immediate) is not notified. */
  approvalSettleMs: number;
}

/**
 * Stored rows → signed webhook POSTs (docs/notifications.md): a turn that completed or failed, a question that
 * waits. The rows come from the store's feed of rows this process stored, so nothing here runs before a row
 * is durable, and the intake never waits on a receiver.
 */
export function webhookNotifications(deps: WebhookNotificationsDeps): OperatorFunction<StoredThreadEvent, DeliveryOutcome> {
  return pipe(pickMoments(), dropAnsweredQuestions(deps.approvalSettleMs, deps.scheduler), describeMoments(deps), deliverWebhook(deps));
}
