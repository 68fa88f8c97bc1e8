import Router, { type RouterContext } from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import { parseInput } from './parseInput';
import { readJsonBody } from './readJsonBody';

export type RouteMethod = 'get' | 'post' | 'patch' | 'delete';

export interface RouteResponse {
  description: string;
  /** The JSON body; none for an empty answer (204) or a stream. */
  schema?: z.ZodType;
  /** Default `application/json` when there is a schema. */
  contentType?: string;
}

/** Path params are an object of strings named as in the path (`:id` → `{ id }`). */
export type ParamsSchema = z.ZodObject;

/**
 * One route as the API document describes it (`GET /api/v1/openapi.json`), declared where the route is
 * registered: the `params`, `query` and `body` schemas `addRoute` parses the request with, and the schemas
 * of its answers. One declaration serves both: the document cannot drift from what the handler accepts.
 */
export interface RouteSpec<
  P extends ParamsSchema | undefined = ParamsSchema | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: RouteMethod;
  /** Koa's path under `/api/v1`, e.g. `/threads/:id`. */
  path: string;
  summary: string;
  tag: string;
  /** Required when the path has params, with exactly their names. */
  params?: P;
  query?: Q;
  body?: B;
  /**
   * A request with no body at all (no length, not chunked) reads as `{}` instead of a 415: the sign-in may
   * carry its token in a header alone. The document still lists the body as the client would send it.
   */
  bodyMayBeAbsent?: boolean;
  responses: Record<number, RouteResponse>;
  /** Needs no token (docs/api.md#authentication). */
  public?: boolean;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler gets: the request's parts already parsed by its spec's schemas. */
export interface RouteInput<P, Q, B> {
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
}

export interface ApiRouterLimits {
  /** Larger bodies are refused with 413 `body_too_large` (config `maxBodyBytes`). */
  maxBodyBytes: number;
}

interface RouterRoutes {
  specs: RouteSpec[];
  limits?: ApiRouterLimits;
}

const routesOfRouter = new WeakMap<Router, RouterRoutes>();

/** A router whose routes may take a body, read up to the given limits. */
export function apiRouter(limits?: ApiRouterLimits): Router {
  const router = new Router();
  routesOfRouter.set(router, { specs: [], ...(limits ? { limits } : {}) });
  return router;
}

/**
 * Registers the route on the router and keeps its spec beside it, so the API document lists what is served.
 * The handler runs once params, query and body passed their schemas, in that order; a part that fails is
 * a 400 `invalid_params` / `invalid_query` / `invalid_body` with zod's issues (and a body that cannot be
 * read: 413, 415, 400 `invalid_json`), the same problems `parseInput` and `readJsonBody` give.
 */
export function addRoute<
  P extends ParamsSchema | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(router: Router, spec: RouteSpec<P, Q, B>, handler: (ctx: Context, input: RouteInput<P, Q, B>) => unknown): void {
  checkParamNames(spec);
  const routes = routesOfRouter.get(router) ?? { specs: [] };
  routesOfRouter.set(router, routes);
  const maxBodyBytes = routes.limits?.maxBodyBytes;
  if (spec.body && maxBodyBytes === undefined)
    throw new Error(`${spec.method} ${spec.path} takes a body: make its router with apiRouter(limits)`);
  router[spec.method](spec.path, async (ctx: RouterContext) => {
    const params = spec.params ? parseInput(spec.params, ctx.params, 'params') : undefined;
    const query = spec.query ? parseInput(spec.query, ctx.query, 'query') : undefined;
    const body = spec.body ? parseInput(spec.body, await bodyOf(ctx, spec, maxBodyBytes!), 'body') : undefined;
    await handler(ctx, { params, query, body } as RouteInput<P, Q, B>);
  });
  routes.specs.push(spec as RouteSpec);
}

export function routeSpecsOf(router: Router): readonly RouteSpec[] {
  return routesOfRouter.get(router)?.specs ?? [];
}

/** The names a path declares (`/threads/:id/events` → `id`); the document lists them as path parameters. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name]) => name!);
}

function bodyOf(ctx: Context, spec: RouteSpec, maxBodyBytes: number): Promise<unknown> {
  if (spec.bodyMayBeAbsent && !ctx.request.length && !ctx.get('transfer-encoding')) return Promise.resolve({});
  return readJsonBody(ctx, maxBodyBytes);
}

/** A path param the schema does not name would reach the handler unparsed: refused when the route is added. */
function checkParamNames(spec: RouteSpec<ParamsSchema | undefined, z.ZodType | undefined, z.ZodType | undefined>): void {
  const inPath = pathParamNames(spec.path).sort().join(',');
  const inSchema = Object.keys(spec.params?.shape ?? {})
    .sort()
    .join(',');
  if (inPath !== inSchema) throw new Error(`${spec.method} ${spec.path}: params schema names [${inSchema}], the path [${inPath}]`);
}
