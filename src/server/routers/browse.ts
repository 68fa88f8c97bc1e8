import Router from '@koa/router';
import { z } from 'zod';
import type { AppDeps } from './appDeps';
import { notFound } from '../http/problem';
import { parseInput } from '../http/parseInput';
import { refuseLongPath } from './rootGuard';

/** `path` is absolute on the host; without it the picker starts at the host's root folder. */
export const BrowseQuerySchema = z.strictObject({ path: z.string().min(1).optional() });

/**
 * `GET /hosts/:id/browse?path=/abs`: one level of a folder, for the page's folder picker when a project is
 * created (`host.browse_directory`: folders first, dot entries and node_modules left out). Only names are
 * listed, no content, as a person choosing a project folder on that host would see them.
 */
export function browseRouter(deps: Pick<AppDeps, 'hosts'>): Router {
  const router = new Router();
  router.get('/hosts/:id/browse', async (ctx) => {
    const query = parseInput(BrowseQuerySchema, ctx.query, 'query');
    const hostId = ctx.params.id!;
    if (!(await deps.hosts.get(hostId))) throw notFound('host', hostId);
    const folder = query.path ?? '/';
    refuseLongPath(folder);
    ctx.body = await deps.hosts.call(hostId, 'host.browse_directory', { path: folder });
  });
  return router;
}
