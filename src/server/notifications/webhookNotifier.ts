import { asyncScheduler, Subject } from 'rxjs';
import { webhookNotifications } from '../../../pipelines/webhook-notifications';
import type { Config } from '../../config/serverConfig';
import { outageLog } from '../../notifications/outageLog';
import { httpPoster, type PostWebhook } from '../../notifications/postWithHttp';
import type { Registry } from '../../registry/registry';
import type { StoredThreadEvent } from '../../store/eventStore';

export interface WebhookNotifier {
  /** Rows this process just stored (publishingStore): returns at once, whatever the receiver does. */
  rowsStored(rows: readonly StoredThreadEvent[]): void;
  close(): void;
}

export interface WebhookNotifierDeps {
  registry: Registry;
  /** The page's address; known once the server listens (port 0). */
  pageUrl(): string;
  log(message: string): void;
  /** node:http(s) unless given (an embedder). */
  post?: PostWebhook;
}

/**
 * The webhook of `ATS_NOTIFY_WEBHOOK` (docs/notifications.md), or undefined when none is set. It hears only of
 * rows stored through this process, so on replicas sharing a PostgreSQL each event is sent by the one replica
 * that stored it (the others see the row through their replica feed, which does not come here). Pending events
 * live in memory: a restart loses the few still queued.
 */
export function startWebhookNotifier(config: Config, deps: WebhookNotifierDeps): WebhookNotifier | undefined {
  const url = config.notifyWebhook;
  if (!url) return undefined;
  const target = new URL(url).origin;
  if (!config.notifyWebhookSecret) deps.log(`notify webhook ${target}: unsigned (set ATS_NOTIFY_WEBHOOK_SECRET to sign each POST)`);
  const rows = new Subject<StoredThreadEvent>();
  const poster = deps.post ? { post: deps.post, close: () => {} } : httpPoster();
  const scheduler = asyncScheduler;
  const subscription = rows
    .pipe(
      webhookNotifications({
        url,
        secret: config.notifyWebhookSecret,
        post: poster.post,
        retryInitialMs: config.notifyRetryInitialMs,
        retryMaxMs: config.notifyRetryMaxMs,
        giveUpMs: config.notifyGiveUpMs,
        timeoutMs: config.notifyTimeoutMs,
        queueMax: config.notifyQueueMax,
        approvalSettleMs: config.notifyApprovalSettleMs,
        watch: outageLog({ target, queueMax: config.notifyQueueMax, log: deps.log, now: () => scheduler.now() }),
        threadOf: async (threadId) => {
          try {
            const thread = await deps.registry.threads.get(threadId);
            return thread && { title: thread.title, projectId: thread.projectId };
          } catch (error) {
            deps.log(`notify webhook: thread ${threadId} not read, its event is not sent: ${String(error)}`);
            return undefined;
          }
        },
        pageUrl: deps.pageUrl,
        scheduler,
      }),
    )
    .subscribe({
      // Every stage turns its failures into values; an error here is a bug, said once rather than lost.
      error: (error: unknown) => deps.log(`notify webhook stopped: ${String(error)}`),
    });
  return {
    rowsStored(stored) {
      for (const row of stored) rows.next(row);
    },
    close() {
      subscription.unsubscribe();
      poster.close();
    },
  };
}
