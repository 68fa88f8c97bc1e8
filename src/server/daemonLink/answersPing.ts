import type { WebSocket } from 'ws';

/**
 * How long a hello that reuses the id of a linked host waits for that link to answer a ping. A live peer
 * answers in one round trip; a link whose peer vanished without a close (a laptop lid shut, a NAT entry
 * dropped) would otherwise keep the host's id until the heartbeat drops it, up to two intervals later.
 */
export const DUPLICATE_PROBE_MS = 2000;

/** Whether `socket`'s peer answers a ping within `timeoutMs`. */
export function answersPing(socket: WebSocket, timeoutMs: number): Promise<boolean> {
  if (socket.readyState !== socket.OPEN) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (alive: boolean) => {
      clearTimeout(timer);
      socket.off('pong', onPong);
      socket.off('close', onClose);
      resolve(alive);
    };
    const onPong = () => done(true);
    const onClose = () => done(false);
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('pong', onPong);
    socket.on('close', onClose);
    socket.ping();
  });
}
