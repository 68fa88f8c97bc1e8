import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { z } from 'zod';

export type RouteMethod = 'get' | 'post' | 'delete';

export interface RouteResponse {
  description: string;
  /** The JSON body; none for an empty answer (204) or a stream. */
  schema?: z.ZodType;
  /** Default `application/json` when there is a schema. */
  contentType?: string;
}

/**
 * One route as the API document describes it (`GET /api/v1/openapi.json`), declared where the route is
 * registered: the same `query` and `body` schemas its handler parses with, and the schemas of its answers.
 */
export interface RouteSpec {
  method: RouteMethod;
  /** Koa's path under `/api/v1`, e.g. `/threads/:id`. */
  path: string;
  summary: string;
  tag: string;
  query?: z.ZodType;
  body?: z.ZodType;
  responses: Record<number, RouteResponse>;
  /** Needs no token (docs/api.md#authentication). */
  public?: boolean;
}

const specsOfRouter = new WeakMap<Router, RouteSpec[]>();

/** Registers the route on the router and keeps its spec beside it, so the API document lists what is served. */
export function addRoute(router: Router, spec: RouteSpec, handler: Middleware): void {
  router[spec.method](spec.path, handler as Parameters<Router['get']>[1]);
  const specs = specsOfRouter.get(router) ?? [];
  specs.push(spec);
  specsOfRouter.set(router, specs);
}

export function routeSpecsOf(router: Router): readonly RouteSpec[] {
  return specsOfRouter.get(router) ?? [];
}
