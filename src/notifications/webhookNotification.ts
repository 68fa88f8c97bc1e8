import { z } from 'zod';
import { TurnStatusSchema } from '../protocol/threadEvents';

/**
 * The moments a webhook is told of (docs/notifications.md): a turn that completed, one that failed (or whose run
 * was lost: status `interrupted` with a reason), and a question that waits for the user's answer.
 */
export const NotifyEventSchema = z.enum(['turn.completed', 'turn.failed', 'approval.requested']);
export type NotifyEvent = z.infer<typeof NotifyEventSchema>;

/**
 * The JSON body of one webhook POST. `text` is one human line (with the link) in Slack's field name, so a
 * Slack-compatible receiver (Discord's `/slack` URL too) shows it as it is; `summary` and `title` feed an ntfy
 * template. Receivers should ignore fields they do not know: later versions may add some.
 */
export const WebhookNotificationSchema = z.strictObject({
  event: NotifyEventSchema,
  threadId: z.string(),
  /** The thread's title when the event was queued, just after its row was stored. */
  title: z.string(),
  projectId: z.string(),
  /** The row's seq: `url` with `#seq=` opens there once the page supports it; with threadId, a stable id. */
  seq: z.number().int().positive(),
  turnId: z.string().optional(),
  /** The turn's status (`turn.*` only). */
  status: TurnStatusSchema.optional(),
  /** The question's id (`approval.requested` only): answer it with `POST /threads/:id/approvals/:approvalId`. */
  approvalId: z.string().optional(),
  /** What happened in a line: the agent's last answer, the error, or the question. */
  summary: z.string(),
  text: z.string(),
  /** The page at this thread. */
  url: z.string(),
  /** When the row was stored (ISO 8601). */
  createdAt: z.string(),
});
export type WebhookNotification = z.infer<typeof WebhookNotificationSchema>;

/** Header names of a POST (lower case, as node:http hands them to a receiver). */
export const WEBHOOK_HEADERS = {
  /** `sha256=<hex HMAC-SHA256 of the raw body, keyed with ATS_NOTIFY_WEBHOOK_SECRET>`, GitHub's scheme. */
  signature: 'x-ats-signature-256',
  /** `<threadId>:<seq>`: the same on every retry of one event, so a receiver can drop a repeat. */
  delivery: 'x-ats-delivery',
  event: 'x-ats-event',
} as const;

/** The id a receiver dedupes by: one event is one row of one thread. */
export const deliveryIdOf = (notification: Pick<WebhookNotification, 'threadId' | 'seq'>) => `${notification.threadId}:${notification.seq}`;
