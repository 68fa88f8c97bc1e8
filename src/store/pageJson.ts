import type { EventStore, ListEventsOptions } from './eventStore';

/** A page of rows as the JSON text a client receives, and how many rows it holds. */
export interface PageJson {
  /** Exactly `JSON.stringify(await store.list(threadId, options))`. */
  json: string;
  rows: number;
}

/** One row's JSON text (exactly `JSON.stringify(row)`) and its seq. */
export interface RowJson {
  seq: number;
  json: string;
}

/**
 * A store that keeps each row as JSON text can give a page as text without building the rows' objects and
 * serialising them again: an events page's first read then costs the lookups, not a parse and a stringify
 * (issue 16); an SSE catch-up the same, row by row (issue 31).
 */
export interface ListsJson {
  listJson(threadId: string, options?: ListEventsOptions): Promise<PageJson>;
  listRowJson(threadId: string, options?: ListEventsOptions): Promise<RowJson[]>;
}

export function canListJson<S extends Pick<EventStore, 'list'>>(store: S): store is S & ListsJson {
  return typeof (store as Partial<ListsJson>).listJson === 'function';
}

/** The page's JSON text: the store's own when it can make it, else its rows serialised. */
export async function pageJson(store: EventStore, threadId: string, options?: ListEventsOptions): Promise<PageJson> {
  if (canListJson(store)) return store.listJson(threadId, options);
  const rows = await store.list(threadId, options);
  return { json: JSON.stringify(rows), rows: rows.length };
}

/** The page's rows as JSON texts: the store's own when it can make them, else its rows serialised. */
export async function rowJsonOf(store: Pick<EventStore, 'list'>, threadId: string, options?: ListEventsOptions): Promise<RowJson[]> {
  if (canListJson(store)) return store.listRowJson(threadId, options);
  const rows = await store.list(threadId, options);
  return rows.map((row) => ({ seq: row.seq, json: JSON.stringify(row) }));
}
