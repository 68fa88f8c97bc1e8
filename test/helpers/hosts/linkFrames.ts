import type WebSocket from 'ws';

/** The JSON-RPC messages of one link frame: the link batches them, so a frame holds one message or an array. */
export function linkFrames(data: WebSocket.RawData): any[] {
  return [JSON.parse(data.toString())].flat();
}
