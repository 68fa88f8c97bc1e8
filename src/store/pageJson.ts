import type { EventStore, ListEventsOptions } from './eventStore';

/** A page of rows as the JSON text a client receives, and how many rows it holds. */
export interface PageJson {
  /** Exactly `JSON.stringify(await store.list(threadId, options))`. */
  json: string;
  rows: number;
}

/**
 * A store that keeps each row as JSON text can give a page as text without building the rows' objects and
 * serialising them again: an events page's first read then costs the lookups, not a parse and a stringify
 * (issue 16).
 */
export interface ListsJson {
  listJson(threadId: string, options?: ListEventsOptions): Promise<PageJson>;
}

export function canListJson(store: EventStore): store is EventStore & ListsJson {
  return typeof (store as Partial<ListsJson>).listJson === 'function';
}

/** The page's JSON text: the store's own when it can make it, else its rows serialised. */
export async function pageJson(store: EventStore, threadId: string, options?: ListEventsOptions): Promise<PageJson> {
  if (canListJson(store)) return store.listJson(threadId, options);
  const rows = await store.list(threadId, options);
  return { json: JSON.stringify(rows), rows: rows.length };
}
