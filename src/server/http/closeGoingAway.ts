import type { WebSocketServer } from 'ws';

/** RFC 6455 "going away": the server is shutting down; a client may reconnect later. */
export const GOING_AWAY = 1001;

/**
 * How long a stopping server waits for its WebSocket peers to answer the close frame before it drops them.
 * A peer answers in one round trip; one that has not within a second is hung or gone, and a shutdown must
 * not wait on it.
 */
export const CLOSE_HANDSHAKE_MS = 1000;

/**
 * Stops `wss` taking connections and closes every open socket with 1001 and `reason`, so clients learn
 * that the server went away on purpose (a bare drop reads as 1006, an abnormal closure); sockets that do not
 * finish the closing handshake within CLOSE_HANDSHAKE_MS are terminated. Resolves once all are gone.
 */
export async function closeGoingAway(wss: WebSocketServer, reason: string): Promise<void> {
  for (const socket of wss.clients) socket.close(GOING_AWAY, reason);
  // With noServer, `close` calls back once the last tracked client is gone.
  const gone = new Promise<void>((resolve) => wss.close(() => resolve()));
  const timer = setTimeout(() => wss.clients.forEach((socket) => socket.terminate()), CLOSE_HANDSHAKE_MS);
  await gone;
  clearTimeout(timer);
}
