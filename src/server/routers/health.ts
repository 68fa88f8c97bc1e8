import type Router from '@koa/router';
import { z } from 'zod';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../protocol/protocolVersion';
import { addRoute, apiRouter } from '../http/routeSpec';

export const HealthSchema = z.strictObject({ status: z.literal('ok'), hostDaemonProtocolVersion: z.number().int() });

/** `GET /health`: the one route without a token, for probes. */
export function healthRouter(): Router {
  const router = apiRouter();
  addRoute(
    router,
    {
      method: 'get',
      path: '/health',
      summary: 'Liveness probe',
      tag: 'health',
      public: true,
      responses: { 200: { description: 'The server runs', schema: HealthSchema } },
    },
    (ctx) => {
      ctx.body = { status: 'ok', hostDaemonProtocolVersion: HOST_DAEMON_PROTOCOL_VERSION } satisfies z.infer<typeof HealthSchema>;
    },
  );
  return router;
}
