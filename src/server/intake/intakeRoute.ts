import { WebSocketServer, type RawData } from 'ws';
import type { JsonRpcResponse } from '../../protocol/jsonRpc';
import { hasBearer } from '../http/authMiddleware';
import type { UpgradeRoute } from '../http/upgrades';
import { startWsHeartbeat } from '../http/wsHeartbeat';
import { closeGoingAway } from '../http/closeGoingAway';
import { dispatchIntakeFrame, type IntakeDeps } from './intakeFrame';

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
 * socket are handed to the host strictly one after another, so a thread's events keep the order they were
 * sent in; storing overlaps (up to `maxInFlight`), so a fast sender is not held to one store round trip per
 * frame. A bad request gets an error answer (a notification's failure is only logged: JSON-RPC answers no
 * notification) and the socket stays open; only an oversize frame closes it (1009).
 */
export function createIntakeRoute(deps: IntakeDeps, options: IntakeOptions): UpgradeRoute & { close(): Promise<void> } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayloadBytes });
  const stopHeartbeat = startWsHeartbeat(wss, options.heartbeatMs);
  wss.on('connection', (socket) => {
    let handOver = Promise.resolve();
    const inFlight = new Set<Promise<void>>();
    const reply = (response: JsonRpcResponse) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(response));
    };
    // JSON-RPC 2.0 never answers a notification, not even its failure: the sender chose not to hear back.
    const note = (response: JsonRpcResponse) => {
      if ('error' in response) options.log(`intake notification refused: ${response.error.code} ${response.error.message}`);
    };
    socket.on('message', (data: RawData) => {
      handOver = handOver.then(async () => {
        if (inFlight.size >= options.maxInFlight) await Promise.race(inFlight);
        const { answer, notification } = await dispatchIntakeFrame(deps, rawText(data));
        const tracked: Promise<void> = answer.then(notification ? note : reply).finally(() => inFlight.delete(tracked));
        inFlight.add(tracked);
      });
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

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}
