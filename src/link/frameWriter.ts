import type { WebSocket } from 'ws';

/**
 * Characters queued in one event-loop turn after which they go out at once rather than at the turn's end
 * (see createFrameWriter). About 40 intake frames of bench:hosts.
 */
export const EAGER_FLUSH_CHARS = 16 * 1024;

export interface FrameWriter {
  /** Queues one serialised message; `sent` learns whether the socket took the frame that carries it. */
  write(text: string, sent?: (error?: Error) => void): void;
}

/**
 * Coalesces the messages written in one turn of the event loop into one WebSocket frame holding a JSON array
 * (as a JSON-RPC batch does); a single message travels as itself. A frame never grows past the peer's limit:
 * a message that would not fit sends what is queued first (a message bigger than the limit alone still goes
 * alone, and the peer refuses it).
 *
 * Once `eagerChars` are queued they go out at once instead of at the end of the turn: a server handing a few
 * hundred intake frames to a daemon in one turn lets the daemon, in its own process, start on the first ones
 * while it prepares the rest, instead of both taking turns.
 */
export function createFrameWriter(
  socket: Pick<WebSocket, 'readyState' | 'OPEN' | 'send'>,
  maxFrameBytes: () => number,
  eagerChars = EAGER_FLUSH_CHARS,
): FrameWriter {
  let queued: { text: string; sent?(error?: Error): void }[] = [];
  let queuedChars = 0;
  let scheduled = false;

  const flush = () => {
    const items = queued;
    queued = [];
    queuedChars = 0;
    if (items.length === 0) return;
    if (socket.readyState !== socket.OPEN) return items.forEach((item) => item.sent?.(new Error('the link is not open')));
    const text = items.length === 1 ? items[0]!.text : `[${items.map((item) => item.text).join(',')}]`;
    socket.send(text, (error) => items.forEach((item) => item.sent?.(error ?? undefined)));
  };

  /** UTF-8 takes at most 3 bytes per UTF-16 unit, so exact sizes are measured only near the limit. */
  const fits = (text: string) => {
    // The array adds a comma per queued message and two brackets.
    const chars = queuedChars + queued.length + text.length + 2;
    const limit = maxFrameBytes();
    if (chars * 3 <= limit) return true;
    return queued.reduce((bytes, item) => bytes + Buffer.byteLength(item.text) + 1, Buffer.byteLength(text) + 2) <= limit;
  };

  return {
    write(text, sent) {
      if (queued.length > 0 && !fits(text)) flush();
      queued.push({ text, sent });
      queuedChars += text.length;
      if (queuedChars >= eagerChars) return flush();
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        flush();
      });
    },
  };
}
