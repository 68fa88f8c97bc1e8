import type { StoredThreadEvent } from '../../store/eventStore';

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
    text = `id: ${row.seq}\ndata: ${JSON.stringify(row)}\n\n`;
    texts.set(row, text);
  }
  return text;
}

/** The last event of a deleted thread's stream: `event: deleted` (no `id:`, so Last-Event-ID stays the last row's). */
export function sseDeletedText(threadId: string): string {
  return `event: deleted\ndata: ${JSON.stringify({ threadId })}\n\n`;
}
