import type { ServerResponse } from 'node:http';
import { interval, type Observable } from 'rxjs';
import type { StoredThreadEvent } from '../../store/eventStore';

export interface SseOptions {
  heartbeatMs: number;
  /** Told to the browser's EventSource: how long to wait before reconnecting. */
  retryMs: number;
}

/**
 * Streams rows as Server-Sent Events on a raw response: `id:` is the seq (so the browser's Last-Event-ID
 * resumes exactly), `data:` the whole row as JSON, on the default `message` event. Idle streams get a
 * comment line every `heartbeatMs` so proxies do not cut them. Resolves when the client goes away or the
 * rows complete (server shutdown).
 */
export function streamSse(res: ServerResponse, rows$: Observable<StoredThreadEvent>, options: SseOptions): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.socket?.setNoDelay(true);
  res.write(`retry: ${options.retryMs}\n: connected\n\n`);
  return new Promise<void>((resolve) => {
    const heartbeat = interval(options.heartbeatMs).subscribe(() => res.write(': heartbeat\n\n'));
    const subscription = rows$.subscribe({
      next: (row) => res.write(`id: ${row.seq}\ndata: ${JSON.stringify(row)}\n\n`),
      error: () => finish(),
      complete: () => finish(),
    });
    res.on('close', finish);
    function finish() {
      heartbeat.unsubscribe();
      subscription.unsubscribe();
      if (!res.writableEnded) res.end();
      resolve();
    }
  });
}
