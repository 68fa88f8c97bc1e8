import type { RowHit, RowSearch } from './searchIndex';
import { wordsOf, type SearchDoc } from './searchableText';

interface Entry extends SearchDoc {
  words: string[];
}

/**
 * Words → rows, in memory: the embedded engine's lookup. A row matches when it holds every query word; rows
 * are ranked BM25-like (a word's weight grows with how rare it is among rows and saturates with how often
 * the row repeats it), ties newest first. Texts are kept for excerpts, so memory grows with what is
 * indexed (about twice the indexed text; README "Known limits").
 */
export interface InvertedIndex {
  /** Idempotent per (thread, seq): a row indexed twice (a catch-up meeting live rows) counts once. */
  add(doc: SearchDoc): void;
  removeThread(threadId: string): void;
  search(query: RowSearch): RowHit[];
  /** Every indexed row, oldest first (to rewrite the log without what was removed). */
  docs(): IterableIterator<SearchDoc>;
  readonly size: number;
}

export function createInvertedIndex(): InvertedIndex {
  const entries = new Map<number, Entry>();
  const idOfKey = new Map<string, number>();
  const idsOfThread = new Map<string, Set<number>>();
  const postings = new Map<string, Map<number, number>>();
  let nextId = 0;

  return {
    get size() {
      return entries.size;
    },
    *docs() {
      for (const { threadId, seq, kind, text } of entries.values()) yield { threadId, seq, kind, text };
    },
    add(doc) {
      const key = `${doc.threadId}\u0000${doc.seq}`;
      if (idOfKey.has(key)) return;
      const id = nextId++;
      const counts = new Map<string, number>();
      for (const word of wordsOf(doc.text)) counts.set(word, (counts.get(word) ?? 0) + 1);
      entries.set(id, { ...doc, words: [...counts.keys()] });
      idOfKey.set(key, id);
      let ids = idsOfThread.get(doc.threadId);
      if (!ids) idsOfThread.set(doc.threadId, (ids = new Set()));
      ids.add(id);
      for (const [word, count] of counts) {
        let posting = postings.get(word);
        if (!posting) postings.set(word, (posting = new Map()));
        posting.set(id, count);
      }
    },
    removeThread(threadId) {
      for (const id of idsOfThread.get(threadId) ?? []) {
        const entry = entries.get(id)!;
        for (const word of entry.words) {
          const posting = postings.get(word)!;
          posting.delete(id);
          if (posting.size === 0) postings.delete(word);
        }
        entries.delete(id);
        idOfKey.delete(`${threadId}\u0000${entry.seq}`);
      }
      idsOfThread.delete(threadId);
    },
    search({ words, threadIds, offset, limit }) {
      const lists = words.map((word) => postings.get(word));
      if (words.length === 0 || lists.some((list) => list === undefined)) return [];
      const sorted = (lists as Map<number, number>[]).slice().sort((a, b) => a.size - b.size);
      const allowed = new Set(threadIds);
      const weights = sorted.map((list) => Math.log(1 + entries.size / list.size));
      // Only the best `offset + limit` are kept, in order (a common word matches most rows; sorting them all
      // was most of a query's time in bench:search).
      const keep = offset + limit;
      const scored: { id: number; score: number }[] = [];
      const better = (a: { id: number; score: number }, b: { id: number; score: number }) =>
        a.score > b.score || (a.score === b.score && a.id > b.id);
      for (const [id] of sorted[0]!) {
        if (!allowed.has(entries.get(id)!.threadId)) continue;
        let score = 0;
        let all = true;
        for (let i = 0; i < sorted.length && all; i++) {
          const count = sorted[i]!.get(id);
          if (count === undefined) all = false;
          else score += (weights[i]! * count * 2.2) / (count + 1.2);
        }
        if (!all) continue;
        const hit = { id, score };
        if (scored.length === keep && !better(hit, scored[keep - 1]!)) continue;
        let at = scored.length;
        while (at > 0 && better(hit, scored[at - 1]!)) at--;
        scored.splice(at, 0, hit);
        if (scored.length > keep) scored.pop();
      }
      return scored.slice(offset, offset + limit).map(({ id }) => {
        const { threadId, seq, kind, text } = entries.get(id)!;
        return { threadId, seq, kind, text };
      });
    },
  };
}
