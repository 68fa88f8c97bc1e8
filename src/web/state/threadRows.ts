import { answerOf, client } from '../api/http';
import type { StoredThreadEvent } from '../api/types';

/** Rows read at open (the last ones, or those around a linked seq) and per step back: a few screens of turns. */
export const PAGE = 800;

export type RowsQuery = { afterSeq?: string; beforeSeq?: string; tail?: 'true'; limit: string };

/** One page of a thread's stored rows. */
export const readRows = (threadId: string, query: RowsQuery): Promise<StoredThreadEvent[]> =>
  answerOf(client.GET('/api/v1/threads/{id}/events', { params: { path: { id: threadId }, query } })).then(
    // The document's row union is the same schema as StoredThreadEvent, read through JSON Schema.
    (rows) => rows as unknown as StoredThreadEvent[],
  );

/**
 * Rows cut anywhere start with the tail of a turn whose beginning is earlier: they are dropped (read again
 * with their turn on the next step back), or, when no turn starts in them, more is read until one does.
 */
export async function widenToTurnStart(threadId: string, rows: StoredThreadEvent[], ended: () => boolean): Promise<StoredThreadEvent[]> {
  while (!ended() && rows.length > 0 && rows[0]!.seq > 1) {
    const start = rows.findIndex((row) => row.type === 'turn/started');
    if (start >= 0) return rows.slice(start);
    const before = await readRows(threadId, { beforeSeq: String(rows[0]!.seq), limit: String(PAGE) });
    if (before.length === 0) break;
    rows = before.concat(rows);
  }
  return rows;
}

/** The rows a thread opens on: the last ones, or those around `atSeq` (`after`: the rows read after it). */
export async function readOpeningRows(
  threadId: string,
  atSeq: number | undefined,
  ended: () => boolean,
): Promise<{ rows: StoredThreadEvent[]; after?: StoredThreadEvent[]; target?: StoredThreadEvent }> {
  if (atSeq === undefined)
    return { rows: await widenToTurnStart(threadId, await readRows(threadId, { tail: 'true', limit: String(PAGE) }), ended) };
  const [before, after] = await Promise.all([
    readRows(threadId, { beforeSeq: String(atSeq + 1), limit: String(PAGE / 2) }).then((rows) => widenToTurnStart(threadId, rows, ended)),
    readRows(threadId, { afterSeq: String(atSeq), limit: String(PAGE / 2) }),
  ]);
  return { rows: before.concat(after), after, target: before.at(-1) };
}
