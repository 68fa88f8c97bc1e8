import { z } from 'zod';
import { ProblemBodySchema } from '../http/problem';
import { pathParamNames, type RouteSpec } from '../http/routeSpec';

export const API_TITLE = 'agent-thread-service';

type JsonSchema = Record<string, unknown>;

/**
 * An OpenAPI 3.1 document of the given routes, generated from the very zod schemas the handlers parse input
 * with and the schemas of their answers (`z.toJSONSchema`, JSON Schema 2020-12, which OpenAPI 3.1 uses as is).
 * Params, query and body are described as the client writes them (`io: "input"`), answers as the server sends them.
 */
export function openApiDocument(routes: readonly RouteSpec[], options: { prefix: string; version: string }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const openApiPath = options.prefix + route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    (paths[openApiPath] ??= {})[route.method] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: API_TITLE,
      version: options.version,
      description:
        'Runs the pi coding agent on host machines and exposes every run as a thread. Generated from the zod schemas the routes validate with.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }, { session: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token in <dataDir>/token, or ATS_TOKEN.' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'ats_session',
          description: 'Set by POST /api/v1/session; changes also need a same-origin Origin header.',
        },
      },
      schemas: { Problem: jsonSchemaOf(ProblemBodySchema, 'output') },
    },
    paths,
  };
}

function operationOf(route: RouteSpec): Record<string, unknown> {
  const parameters = [...pathParametersOf(route), ...queryParametersOf(route.query)];
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    const contentType = response.contentType ?? 'application/json';
    responses[status] = {
      description: response.description,
      ...(response.schema
        ? { content: { [contentType]: { schema: jsonSchemaOf(response.schema, 'output') } } }
        : response.contentType
          ? { content: { [contentType]: { schema: { type: 'string' } } } }
          : {}),
    };
  }
  responses['default'] = {
    description: 'A problem (RFC 9457) with a stable `code`',
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
  return {
    operationId: `${route.method}${route.path.replace(/:([A-Za-z0-9_]+)/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: route.summary,
    tags: [route.tag],
    ...(route.public ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(route.body, 'input') } } } }
      : {}),
    responses,
  };
}

/** In the path's order; each param's schema is its property in the route's params schema. */
function pathParametersOf(route: RouteSpec): unknown[] {
  const properties = route.params ? ((jsonSchemaOf(route.params, 'input')['properties'] as Record<string, JsonSchema>) ?? {}) : {};
  return pathParamNames(route.path).map((name) => ({ name, in: 'path', required: true, schema: properties[name] ?? { type: 'string' } }));
}

function queryParametersOf(query: z.ZodType | undefined): unknown[] {
  if (!query) return [];
  const object = jsonSchemaOf(query, 'input');
  const required = new Set((object['required'] as string[] | undefined) ?? []);
  return Object.entries((object['properties'] as Record<string, JsonSchema> | undefined) ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema,
  }));
}

/** A transform (`decimalParam`) has no JSON Schema of its output: `unrepresentable: "any"` leaves it open. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}
