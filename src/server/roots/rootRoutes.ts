import type Router from '@koa/router';
import type { z } from 'zod';
import { ListPathsResultSchema } from '../../protocol/hostFiles';
import type { Collection } from '../../registry/collection';
import type { HostDirectory } from '../hosts/hostDirectory';
import { IdParamsSchema } from '../http/idParams';
import { mustGet } from '../http/lookups';
import { addRoute } from '../http/routeSpec';
import { PathsQuerySchema } from './pathsQuery';

/** Where a registered root is: a folder on a host. */
export interface RootPlace {
  hostId: string;
  path: string;
}

/** A kind of record that registers a root (a project, an environment) and how the API names it. */
export interface RootResource<T extends { id: string }> {
  /** `project`: routes under `/projects`, 404 `project_not_found`, summaries "One project". */
  what: string;
  collection: Collection<T>;
  /** The record as answered. */
  schema: z.ZodType;
  placeOf(record: T): RootPlace;
  /** Summary of the paths route in the API document. */
  pathsSummary: string;
}

/**
 * `GET /<what>s/:id` and `GET /<what>s/:id/paths` (quick-open in its folder): the two routes a project and an
 * environment answer alike, so the next kind of root gets them in one call.
 */
export function addRootRoutes<T extends { id: string }>(router: Router, hosts: HostDirectory, resource: RootResource<T>): void {
  const { what, collection } = resource;
  const tag = `${what}s`;
  addRoute(
    router,
    {
      method: 'get',
      path: `/${tag}/:id`,
      summary: `One ${what}`,
      tag,
      params: IdParamsSchema,
      responses: { 200: { description: `The ${what}`, schema: resource.schema } },
    },
    async (ctx, { params }) => {
      ctx.body = await mustGet(collection, params.id, what);
    },
  );

  addRoute(
    router,
    {
      method: 'get',
      path: `/${tag}/:id/paths`,
      summary: resource.pathsSummary,
      tag,
      params: IdParamsSchema,
      query: PathsQuerySchema,
      responses: { 200: { description: 'Ranked paths with matched positions', schema: ListPathsResultSchema } },
    },
    async (ctx, { params, query }) => {
      const root = resource.placeOf(await mustGet(collection, params.id, what));
      ctx.body = await hosts.call(root.hostId, 'host.list_paths', { ...query, path: root.path });
    },
  );
}
