import type { EventStore } from '../../store/eventStore';
import { pageJson } from '../../store/pageJson';
import { createPageTexts, type PageTexts } from './pageTexts';

/** The JSON text of the page of `limit` rows after `afterSeq`: what `GET /threads/:id/events` sends. */
export type ReadEventPage = (threadId: string, afterSeq: number, limit: number) => Promise<string>;

/**
 * The text Koa would make of the rows (JSON.stringify), made by the store from its own row texts where it
 * can, and kept for a full page (see pageTexts): a page read again costs neither a store read nor a
 * serialisation.
 */
export function createEventPageReader(store: EventStore, pageTexts: PageTexts = createPageTexts()): ReadEventPage {
  return async (threadId, afterSeq, limit) => {
    const kept = pageTexts.get(threadId, afterSeq, limit);
    if (kept !== undefined) return kept;
    const page = await pageJson(store, threadId, { afterSeq, limit });
    if (page.rows === limit) pageTexts.keep(threadId, afterSeq, limit, page.json);
    return page.json;
  };
}
