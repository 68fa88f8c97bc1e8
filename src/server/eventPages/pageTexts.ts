/** Characters of page text kept (about as many bytes), over all threads; the least recently read page goes first. */
export const PAGE_TEXTS_MAX_CHARS = 16 * 1024 * 1024;

export interface PageTexts {
  /** The JSON text of the page of `limit` rows after `afterSeq`, when it was read before. */
  get(threadId: string, afterSeq: number, limit: number): string | undefined;
  /** Keeps a page's text; only a full page (`limit` rows) may be kept: it can never change. */
  keep(threadId: string, afterSeq: number, limit: number, text: string): void;
}

/**
 * Answers of `GET /threads/:id/events` kept as the text sent. A full page never changes (stored rows are
 * never rewritten, seqs have no gaps, so the `limit` rows after a cursor are the same rows forever); a short
 * page, the thread's end, grows with the next append and is never kept. A page read again (a client paging
 * back, several clients catching up over the same rows) costs neither a store read nor a serialisation.
 */
export function createPageTexts(maxChars: number = PAGE_TEXTS_MAX_CHARS): PageTexts {
  // A Map iterates in insertion order: re-inserting on a hit keeps the least recently read page first.
  const pages = new Map<string, string>();
  let chars = 0;
  const keyOf = (threadId: string, afterSeq: number, limit: number) => `${threadId}\u0000${afterSeq}\u0000${limit}`;
  return {
    get(threadId, afterSeq, limit) {
      const key = keyOf(threadId, afterSeq, limit);
      const text = pages.get(key);
      if (text !== undefined) {
        pages.delete(key);
        pages.set(key, text);
      }
      return text;
    },
    keep(threadId, afterSeq, limit, text) {
      if (text.length > maxChars) return;
      const key = keyOf(threadId, afterSeq, limit);
      const earlier = pages.get(key);
      if (earlier) chars -= earlier.length;
      pages.delete(key);
      pages.set(key, text);
      chars += text.length;
      for (const [oldest, old] of pages) {
        if (chars <= maxChars) break;
        pages.delete(oldest);
        chars -= old.length;
      }
    },
  };
}
