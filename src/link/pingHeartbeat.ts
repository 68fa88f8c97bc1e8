import type { WebSocket } from 'ws';

/** Ping interval of both ends of a link (and of the intake) unless configured: `wsHeartbeatMs`, `--heartbeat-ms`. */
export const DEFAULT_HEARTBEAT_MS = 30_000;

/**
 * The dialling end's heartbeat (a daemon's link, a replica's peer link; sockets the server accepts run
 * src/server/http/wsHeartbeat.ts): a ping every `intervalMs`; a socket that has not ponged since the previous
 * ping is terminated, so a link that went silent (a laptop lid closed, a NAT entry dropped) is noticed within
 * two intervals and redialled.
 */
export function startPingHeartbeat(socket: WebSocket, intervalMs: number): () => void {
  let answered = true;
  const onPong = () => (answered = true);
  socket.on('pong', onPong);
  const timer = setInterval(() => {
    if (!answered) return socket.terminate();
    answered = false;
    socket.ping();
  }, intervalMs);
  const stop = () => {
    clearInterval(timer);
    socket.off('pong', onPong);
    socket.off('close', stop);
  };
  socket.on('close', stop);
  return stop;
}
