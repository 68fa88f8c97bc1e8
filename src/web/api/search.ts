import { answerOf, client } from './http';

/** One page of `GET /search` (issue 31): hits best first, and the cursor of the next page (null at the end). */
export type SearchPage = Awaited<ReturnType<typeof searchThreads>>;
export type SearchHit = SearchPage['hits'][number];

export const SEARCH_PAGE_SIZE = 20;

/** Threads' titles, prompts, answers and command lines holding every word of `q`, archived threads too when asked. */
export function searchThreads(q: string, options: { cursor?: string; archived?: boolean } = {}) {
  return answerOf(
    client.GET('/api/v1/search', {
      params: {
        query: {
          q,
          limit: SEARCH_PAGE_SIZE,
          ...(options.cursor ? { cursor: options.cursor } : {}),
          ...(options.archived ? { archived: 'true' as const } : {}),
        },
      },
    }),
  );
}
