import type Router from '@koa/router';
import { addRoute, apiRouter } from '../http/routeSpec';
import { searchThreads, SearchPageSchema, SearchQuerySchema } from '../search/searchThreads';
import type { AppDeps } from './appDeps';

/** `GET /search`: full-text search across threads (issue 31, docs/search.md). */
export function searchRouter(deps: AppDeps & Required<Pick<AppDeps, 'search'>>): Router {
  const router = apiRouter(deps.config);
  addRoute(
    router,
    {
      method: 'get',
      path: '/search',
      summary: 'Search thread titles, what users sent, agent answers and command lines',
      tag: 'search',
      query: SearchQuerySchema,
      responses: { 200: { description: 'Hits, best first, and the cursor of the next page', schema: SearchPageSchema } },
    },
    async (ctx, { query }) => {
      ctx.body = await searchThreads(deps.registry, deps.search, query);
    },
  );
  return router;
}
