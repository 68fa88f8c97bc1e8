import type Router from '@koa/router';
import { z } from 'zod';
import { addRoute, apiRouter, routeSpecsOf, type RouteSpec } from '../http/routeSpec';
import { openApiDocument } from '../openApi/openApiDocument';

const OPENAPI_PATH = '/openapi.json';

/**
 * `GET /openapi.json`: the API document of every route of `routers` (and of itself), built once on the first
 * request from the specs the routers registered their routes with. Public: it describes, it holds no data.
 */
export function openApiRouter(routers: readonly Router[], options: { prefix: string }): Router {
  const router = apiRouter();
  const self: RouteSpec = {
    method: 'get',
    path: OPENAPI_PATH,
    summary: 'This document (OpenAPI 3.1)',
    tag: 'meta',
    public: true,
    responses: {
      200: {
        description: 'The API document',
        schema: z.looseObject({ openapi: z.literal('3.1.0'), paths: z.record(z.string(), z.unknown()) }),
      },
    },
  };
  let document: Record<string, unknown> | undefined;
  addRoute(router, self, (ctx) => {
    document ??= openApiDocument([...routers.flatMap(routeSpecsOf), self], { prefix: options.prefix, version: 'v1' });
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = document;
  });
  return router;
}
