import type { WebSocket } from 'ws';
import type { HostDirectory } from '../hosts/hostDirectory';
import { answersPing } from './answersPing';

/**
 * Which link owns each host id, for one link route. A hello whose id is online already is refused, so
 * another daemon with a copy of this one's data dir (the same host id) cannot take the id over and drop
 * the real host offline; the embedded host's id is never taken from outside. One exception: a linked socket
 * of ours that no longer answers a ping is a dead link the heartbeat has not caught yet (the same daemon
 * redialling after a network drop); the newcomer takes its place, as a reconnect always did.
 */
export interface HostIdClaims {
  /** Reserves `hostId` for a hello, or says why it is taken. Every reservation ends with `settle`. */
  claim(hostId: string): Promise<{ refused: string } | { settle(linked?: { socket: WebSocket; from: string }): void }>;
}

export function createHostIdClaims(hosts: HostDirectory, probeMs: number): HostIdClaims {
  const socketOf = new Map<string, { socket: WebSocket; from: string }>();
  const helloing = new Set<string>();

  const takenBecause = async (hostId: string): Promise<string | undefined> => {
    if (!hosts.isOnline(hostId)) return undefined;
    const linked = socketOf.get(hostId);
    if (!linked) return 'it is the embedded host, or linked through another route';
    if (await answersPing(linked.socket, probeMs)) return `its link from ${linked.from} is alive`;
    // Left to the directory, which closes a replaced link only once the new one holds the id: closing it
    // here first would mark the host offline (and its threads reconnecting) for a moment.
    return undefined;
  };

  return {
    async claim(hostId) {
      if (helloing.has(hostId)) return { refused: 'another link of this host is saying hello' };
      helloing.add(hostId);
      const refused = await takenBecause(hostId).catch((error: unknown) => {
        helloing.delete(hostId);
        throw error;
      });
      if (refused !== undefined) {
        helloing.delete(hostId);
        return { refused };
      }
      return {
        settle(linked) {
          helloing.delete(hostId);
          if (!linked) return;
          socketOf.set(hostId, linked);
          linked.socket.once('close', () => {
            if (socketOf.get(hostId) === linked) socketOf.delete(hostId);
          });
        },
      };
    },
  };
}
