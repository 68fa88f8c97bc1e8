import { z } from 'zod';
import type { ThreadRecord } from '../../registry/records';
import type { Registry } from '../../registry/registry';
import { excerptOf } from '../../store/search/excerpt';
import type { SearchIndex } from '../../store/search/searchIndex';
import { queryWordsOf, wordsOf } from '../../store/search/searchableText';
import { Problem } from '../http/problem';

export const SEARCH_MAX_LIMIT = 100;
export const SEARCH_DEFAULT_LIMIT = 20;

export const SearchQuerySchema = z.strictObject({
  q: z.string().min(1).max(500),
  projectId: z.string().min(1).optional(),
  /** `true`: archived threads are searched too; absent or `false`: only the others. */
  archived: z.enum(['true', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(SEARCH_MAX_LIMIT).optional(),
  /** `nextCursor` of the page before. */
  cursor: z.string().min(1).optional(),
});
export type SearchQuery = z.infer<typeof SearchQuerySchema>;

export const SearchHitSchema = z.strictObject({
  threadId: z.string(),
  /** The row that matched; 0 when the thread's title did. */
  seq: z.number().int().nonnegative(),
  /** `title`, `user` (what the user sent), `agent` (an answer) or `command` (a command line). */
  kind: z.enum(['title', 'user', 'agent', 'command']),
  title: z.string(),
  excerpt: z.string(),
  /** `[start, end)` offsets of the matched words in `excerpt`. */
  marks: z.array(z.tuple([z.number().int(), z.number().int()])),
});
export type SearchHit = z.infer<typeof SearchHitSchema>;

export const SearchPageSchema = z.strictObject({ hits: z.array(SearchHitSchema), nextCursor: z.string().nullable() });
export type SearchPage = z.infer<typeof SearchPageSchema>;

/**
 * `GET /search`: threads whose title holds every word come first (by title), then their rows as the engine
 * ranks them. Which threads count is decided here, from the registry, on every query: a deleted thread is
 * gone at once (even before its index entries are), an archived one only with `archived=true`. The cursor is
 * opaque to clients (an offset into the ranked list, so a page may repeat or skip a hit when rows arrive
 * between pages, as a web search does).
 */
export async function searchThreads(registry: Registry, index: SearchIndex, query: SearchQuery): Promise<SearchPage> {
  const words = queryWordsOf(query.q);
  const limit = query.limit ?? SEARCH_DEFAULT_LIMIT;
  const offset = query.cursor === undefined ? 0 : offsetOf(query.cursor);
  if (words.length === 0) return { hits: [], nextCursor: null };
  const threads = (await registry.threads.find(query.projectId ? { projectId: query.projectId } : {})).filter(
    (thread) => query.archived === 'true' || !thread.archived,
  );
  const byId = new Map(threads.map((thread) => [thread.id, thread]));
  const titled = threads.filter((thread) => holdsEvery(thread.title, words)).sort(byTitle);
  const titleHits = titled.slice(offset, offset + limit + 1).map((thread) => hitOf(thread, 0, 'title', thread.title, words));
  const rowOffset = Math.max(0, offset - titled.length);
  const rows =
    titleHits.length > limit
      ? []
      : await index.search({ words, threadIds: [...byId.keys()], offset: rowOffset, limit: limit + 1 - titleHits.length });
  // A thread deleted while the query ran is left out (its rows may still be in the index for a moment).
  const rowHits = rows.flatMap((row) => {
    const thread = byId.get(row.threadId);
    return thread ? [hitOf(thread, row.seq, row.kind, row.text, words)] : [];
  });
  const hits = [...titleHits, ...rowHits];
  return { hits: hits.slice(0, limit), nextCursor: hits.length > limit ? cursorOf(offset + limit) : null };
}

function hitOf(thread: ThreadRecord, seq: number, kind: SearchHit['kind'], text: string, words: readonly string[]): SearchHit {
  return { threadId: thread.id, seq, kind, title: thread.title, ...excerptOf(text, words) };
}

function holdsEvery(text: string, words: readonly string[]): boolean {
  const held = new Set(wordsOf(text));
  return words.every((word) => held.has(word));
}

const byTitle = (a: ThreadRecord, b: ThreadRecord) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id);

const cursorOf = (offset: number) => Buffer.from(JSON.stringify({ o: offset })).toString('base64url');

function offsetOf(cursor: string): number {
  try {
    const { o } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown };
    if (typeof o === 'number' && Number.isInteger(o) && o >= 0) return o;
  } catch {
    // falls through to the problem below
  }
  throw new Problem(400, 'invalid_cursor', 'cursor is not a nextCursor this server gave');
}
