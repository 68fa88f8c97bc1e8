import type { ServerResponse } from 'node:http';
import { fromEvent, interval, type Observable } from 'rxjs';
import type { SseChunk } from './sseEventText';
import type { RowDemand } from './threadRowsFrom';

export interface SseOptions {
  heartbeatMs: number;
  /** Told to the browser's EventSource: how long to wait before reconnecting. */
  retryMs: number;
  /** Bytes the response may hold unsent before it takes no more rows until the socket drains. */
  maxBufferedBytes: number;
  /** A response that stays full this long is reset; the client resumes with Last-Event-ID. */
  stallMs: number;
  /** Text sent as the stream's last event when this emits (the thread was deleted); the stream then ends. */
  farewell$?: Observable<string>;
}

/**
 * Streams rows as Server-Sent Events on a raw response: `id:` is the seq (so the browser's Last-Event-ID
 * resumes exactly), `data:` the whole row as JSON, on the default `message` event. Idle streams get a
 * comment line every `heartbeatMs` so proxies do not cut them. Resolves when the client goes away or the
 * rows complete (server shutdown).
 *
 * Backpressure: once `maxBufferedBytes` wait unsent (and the socket asked for a drain), the rows are told
 * to pause; they resume from the store on 'drain' (a catch-up reads its next page only then). So a slow
 * reader holds at most that plus one chunk (a live row, or a page of the store, about `maxBufferedBytes`),
 * and never delays the other readers of the thread. Rows that arrive in one go (one stored batch) leave in
 * one write while they fit. A reader that does not drain within `stallMs` is reset rather than kept open
 * forever.
 */
export function streamSse(res: ServerResponse, rowsFor: (demand: RowDemand) => Observable<SseChunk>, options: SseOptions): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.socket?.setNoDelay(true);
  // writableNeedDrain guarantees a 'drain' will come, whatever maxBufferedBytes is next to the socket's own mark.
  const demand: RowDemand = {
    paused: () => res.writableNeedDrain && res.writableLength >= options.maxBufferedBytes,
    resumed$: fromEvent(res, 'drain'),
  };
  return new Promise<void>((resolve) => {
    let stall: NodeJS.Timeout | undefined;
    let unsent = '';
    const write = () => {
      const text = unsent;
      unsent = '';
      if (text === '' || res.writableEnded) return;
      res.write(text);
      if (stall === undefined && demand.paused()) stall = setTimeout(reset, options.stallMs);
    };
    // The rows of one stored batch arrive in one go: they leave in one write at the end of it, not one each;
    // but at once when they would fill the response, so the pause is seen before the next row, as without.
    const send = (text: string) => {
      if (unsent === '') queueMicrotask(write);
      unsent += text;
      if (res.writableLength + unsent.length >= options.maxBufferedBytes) write();
    };
    const drained = () => {
      clearTimeout(stall);
      stall = undefined;
    };
    res.on('drain', drained);
    send(`retry: ${options.retryMs}\n: connected\n\n`);
    const heartbeat = interval(options.heartbeatMs).subscribe(() => {
      // A full socket is not idle: a heartbeat there would only add to what the reader already owes.
      if (!demand.paused()) send(': heartbeat\n\n');
    });
    const subscription = rowsFor(demand).subscribe({
      next: (chunk) => send(chunk.text),
      error: () => finish(),
      complete: () => finish(),
    });
    // A deleted thread's hub says so before it completes the rows: the farewell is the stream's last event.
    const farewell = options.farewell$?.subscribe((text) => {
      send(text);
      finish();
    });
    res.on('close', finish);
    // A reset (not a graceful end) also frees the unsent bytes in the kernel, which a reader that does not
    // read would otherwise hold until TCP gives up. An EventSource reconnects with its Last-Event-ID.
    function reset() {
      if (res.socket) res.socket.resetAndDestroy();
      else res.destroy();
    }
    function finish() {
      if (!res.destroyed) write(); // what the last rows left unsent, when the reader is still there
      clearTimeout(stall);
      res.off('drain', drained);
      heartbeat.unsubscribe();
      subscription.unsubscribe();
      farewell?.unsubscribe();
      if (!res.writableEnded) res.end();
      resolve();
    }
  });
}
