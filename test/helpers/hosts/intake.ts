import type WebSocket from 'ws';
import { agentStart, assistantStart, textDelta } from '../server/frames';

/** Intake answers by request id, as they arrive (a request to an absent host is answered with an error). */
export function collectAnswers(socket: WebSocket): Map<number, { result?: { seqs: number[] }; error?: { code: number; message: string } }> {
  const answers = new Map();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (typeof message.id === 'number') answers.set(message.id, message);
  });
  return answers;
}

/** An open turn, then `count` deltas `d0 `, `d1 `… each a request with id 1000 + i. */
export function streamDeltas(socket: WebSocket, threadId: string, count: number, first = 0): void {
  for (let i = first; i < first + count; i++) socket.send(JSON.stringify(textDelta(threadId, `d${i} `, 1000 + i)));
}

export function openTurn(socket: WebSocket, threadId: string): void {
  socket.send(JSON.stringify(agentStart(threadId)));
  socket.send(JSON.stringify(assistantStart(threadId)));
}

/** The deltas stored for a thread, in seq order, and whether seqs run 1..n with no gap. */
export function deltasOf(rows: { seq: number; type: string; data: { delta?: string } }[]): { deltas: string[]; gapless: boolean } {
  return {
    deltas: rows.filter((row) => row.type === 'item/agentMessage/delta').map((row) => row.data.delta!),
    gapless: rows.every((row, i) => row.seq === i + 1),
  };
}
