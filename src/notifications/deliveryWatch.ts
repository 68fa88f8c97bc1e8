import type { DeliveryFailure } from './deliveryFailure';
import type { WebhookNotification } from './webhookNotification';

/** What the delivery tells whoever watches it (the log, tests): every attempt's fate and the queue's. */
export interface DeliveryWatch {
  attemptFailed(failure: DeliveryFailure): void;
  delivered(notification: WebhookNotification): void;
  /** Its retries ran out (past the give-up time) or the receiver refused it for good. */
  gaveUp(notification: WebhookNotification, failure: DeliveryFailure): void;
  /** Pushed out of a full queue unsent. */
  dropped(notification: WebhookNotification): void;
  /** Nothing waits and nothing is being sent. */
  idle(): void;
}
