import type { StoredThreadEvent } from '../../store/eventStore';

/** Rows ready to send as Server-Sent Events: their text, and the seq of the last of them. */
export interface SseChunk {
  lastSeq: number;
  text: string;
}

/** Each published row's SSE text, made by the first stream that sends it and reused by every other. */
const texts = new WeakMap<StoredThreadEvent, string>();

/**
 * One row as a Server-Sent Event: `id:` is the seq (so the browser's Last-Event-ID resumes exactly), `data:`
 * the whole row as JSON, on the default `message` event. The hub hands the same row object to every reader
 * of its thread, so a row is serialised once however many read it, not once per reader.
 */
export function sseEventText(row: StoredThreadEvent): string {
  let text = texts.get(row);
  if (text === undefined) {
    text = sseEventTextOf(row.seq, JSON.stringify(row));
    texts.set(row, text);
  }
  return text;
}

/** A row's SSE event from its JSON text (exactly `JSON.stringify(row)`, so the same bytes as `sseEventText`). */
export function sseEventTextOf(seq: number, json: string): string {
  return `id: ${seq}\ndata: ${json}\n\n`;
}

/** The last event of a deleted thread's stream: `event: deleted` (no `id:`, so Last-Event-ID stays the last row's). */
export function sseDeletedText(threadId: string): string {
  return `event: deleted\ndata: ${JSON.stringify({ threadId })}\n\n`;
}
