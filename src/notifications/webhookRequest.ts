import { createHmac } from 'node:crypto';
import { deliveryIdOf, WEBHOOK_HEADERS, type WebhookNotification } from './webhookNotification';

/** One POST, ready to send: the body is the exact text that was signed. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** `sha256=<hex>`: HMAC-SHA256 of the raw body keyed with the secret, as GitHub signs its webhooks. */
export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** The POST of a notification: signed when a secret is set (`ATS_NOTIFY_WEBHOOK_SECRET`). */
export function webhookRequestOf(notification: WebhookNotification, url: string, secret: string | undefined): WebhookRequest {
  const body = JSON.stringify(notification);
  return {
    url,
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'agent-thread-service',
      [WEBHOOK_HEADERS.event]: notification.event,
      [WEBHOOK_HEADERS.delivery]: deliveryIdOf(notification),
      ...(secret === undefined ? {} : { [WEBHOOK_HEADERS.signature]: signatureOf(body, secret) }),
    },
  };
}
