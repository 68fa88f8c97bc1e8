import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { JsonRpcResponse } from '../../protocol/jsonRpc';
import { hasBearer } from '../http/authMiddleware';
import type { UpgradeRoute } from '../http/upgrades';
import { startWsHeartbeat } from '../http/wsHeartbeat';
import { closeGoingAway } from '../http/closeGoingAway';
import { dispatchIntakeFrames } from './intakeBatch';
import type { IntakeDeps } from './intakeFrame';
import { createSlots } from './slots';

export const INTAKE_PATH = '/api/v1/intake';

export interface IntakeOptions {
  token: string;
  maxPayloadBytes: number;
  /** Frames of one socket handed to the host but not yet stored; beyond it the socket's frames wait. */
  maxInFlight: number;
  heartbeatMs: number;
  log(message: string): void;
}

/**
 * `ws://HOST:PORT/api/v1/intake`: any pi process streams JSON-RPC frames into existing threads. Frames of one
 * socket are handed to the host in the order they arrived, so a thread's events keep the order they were
 * sent in. Frames that arrive together go together (group commit): their threads are looked up once and
 * the host's pipeline stores them in one append, each acked when that append is stored. Storing overlaps
 * (up to `maxInFlight` frames), so a fast sender is not held to one store round trip per frame. A bad
 * request gets an error answer (a notification's failure is only logged: JSON-RPC answers no notification)
 * and the socket stays open; only an oversize frame closes it (1009).
 */
export function createIntakeRoute(deps: IntakeDeps, options: IntakeOptions): UpgradeRoute & { close(): Promise<void> } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayloadBytes });
  const stopHeartbeat = startWsHeartbeat(wss, options.heartbeatMs);
  wss.on('connection', (socket) => {
    const reply = coalescedSender(socket);
    // JSON-RPC 2.0 never answers a notification, not even its failure: the sender chose not to hear back.
    const note = (response: JsonRpcResponse) => {
      if ('error' in response) options.log(`intake notification refused: ${response.error.code} ${response.error.message}`);
    };
    const inFlight = createSlots(options.maxInFlight);
    // Kept as received (off the JS heap) until handed over; read as text then.
    const arrived: RawData[] = [];
    let handingOver = false;
    /**
     * Hands over everything that arrived meanwhile as one group, one group at a time (so frames keep their
     * order), as many as free slots allow.
     */
    const handOver = async () => {
      handingOver = true;
      while (arrived.length > 0) {
        await inFlight.free();
        const texts = arrived.splice(0, inFlight.available()).map(rawText);
        inFlight.take(texts.length);
        for (const { answer, notification } of await dispatchIntakeFrames(deps, texts)) {
          // One reaction per frame (not a then and a finally): a burst settles hundreds of these at once.
          void answer.then((response) => {
            inFlight.give();
            (notification ? note : reply)(response);
          });
        }
      }
      handingOver = false;
    };
    socket.on('message', (data: RawData) => {
      arrived.push(data);
      // Started after the current read: ws emits every frame of a read in one go, and they form one group.
      if (!handingOver) {
        handingOver = true;
        queueMicrotask(() => void handOver());
      }
    });
    socket.on('error', (error) => options.log(`intake socket error: ${error.message}`));
  });
  return {
    path: INTAKE_PATH,
    authorize: (req) => hasBearer(req.headers, options.token),
    handle: (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
    async close() {
      stopHeartbeat();
      await closeGoingAway(wss, 'the server is shutting down');
    },
  };
}

/**
 * Sends answers through one write per turn of the event loop instead of one each: the answers of one stored
 * batch are ready at the same moment, and a system call per answer cost more than the answer itself. ws
 * corks its socket per message; an outer cork (counted by Node) holds them until the turn ends.
 */
function coalescedSender(socket: WebSocket): (response: JsonRpcResponse) => void {
  const raw = (socket as unknown as { _socket?: Duplex })._socket;
  let corked = false;
  return (response) => {
    if (socket.readyState !== socket.OPEN) return;
    if (raw && !corked) {
      corked = true;
      raw.cork();
      setImmediate(() => {
        corked = false;
        raw.uncork();
      });
    }
    socket.send(JSON.stringify(response));
  };
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}
