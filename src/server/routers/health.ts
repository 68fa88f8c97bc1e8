import Router from '@koa/router';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../protocol/protocolVersion';

/** `GET /health`: the one route without a token, for probes. */
export function healthRouter(): Router {
  const router = new Router();
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok', hostDaemonProtocolVersion: HOST_DAEMON_PROTOCOL_VERSION };
  });
  return router;
}
