import type { WebSocket, WebSocketServer } from 'ws';

/**
 * Drops peers that stop answering pings: every `intervalMs` a socket that has not ponged since the last
 * tick is terminated, so a dead peer is gone within two intervals. Returns a stop function.
 */
export function startWsHeartbeat(wss: WebSocketServer, intervalMs: number): () => void {
  const alive = new WeakMap<WebSocket, boolean>();
  wss.on('connection', (socket) => {
    alive.set(socket, true);
    socket.on('pong', () => alive.set(socket, true));
  });
  const timer = setInterval(() => {
    for (const socket of wss.clients) {
      if (alive.get(socket) === false) {
        socket.terminate();
        continue;
      }
      alive.set(socket, false);
      socket.ping();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
