import { Observable } from 'rxjs';
import type { WebhookRequest } from './webhookRequest';

/** Sends one POST and emits the receiver's status; unsubscribing aborts it (a timeout, a shutdown). */
export type PostWebhook = (request: WebhookRequest) => Observable<number>;

/** The real POST, through `fetch` (Node's undici): the answer's body is discarded unread. */
export function postWithFetch(fetchImpl: typeof fetch = fetch): PostWebhook {
  return (request) =>
    new Observable<number>((subscriber) => {
      const abort = new AbortController();
      fetchImpl(request.url, { method: 'POST', headers: request.headers, body: request.body, signal: abort.signal }).then(
        async (response) => {
          await response.body?.cancel().catch(() => undefined); // frees the connection for the next POST
          subscriber.next(response.status);
          subscriber.complete();
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => abort.abort();
    });
}
