import Koa from 'koa';
import type Router from '@koa/router';
import type { AppDeps } from './routers/appDeps';
import { authMiddleware } from './http/authMiddleware';
import { createBrowserSessions } from './http/browserSessions';
import { errorMiddleware } from './http/errorMiddleware';
import { servePage } from './http/servePage';
import { environmentsRouter } from './routers/environments';
import { eventsRouter } from './routers/events';
import { filesRouter } from './routers/files';
import { healthRouter } from './routers/health';
import { openApiRouter } from './routers/openApi';
import { hostsRouter } from './routers/hosts';
import { hostAccessRouter } from './routers/hostAccess';
import { projectsRouter } from './routers/projects';
import { searchRouter } from './routers/search';
import { sessionRouter } from './routers/session';
import { threadsRouter } from './routers/threads';
import { threadTurnsRouter } from './routers/threadTurns';
import { reviewRouter } from './routers/review';
import { rewindRouter } from './routers/rewind';
import { forkRouter } from './routers/fork';
import { shipRouter } from './routers/ship';

export const API_PREFIX = '/api/v1';

/** The HTTP API as a Koa app that does not listen: tests and `startServer` put it on a port. */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.use(errorMiddleware(deps.log));
  const sessions = createBrowserSessions(deps.token);
  app.use(authMiddleware(deps.token, sessions));
  app.use(servePage(deps.config.webDir));
  const routers: Router[] = [
    healthRouter(),
    sessionRouter({ token: deps.token, sessions, maxBodyBytes: deps.config.maxBodyBytes }),
    hostsRouter(deps),
    hostAccessRouter(deps),
    projectsRouter(deps),
    environmentsRouter(deps),
    threadsRouter(deps),
    threadTurnsRouter(deps),
    reviewRouter(deps),
    rewindRouter(deps),
    forkRouter(deps),
    shipRouter(deps),
    eventsRouter(deps),
    filesRouter(deps),
  ];
  if (deps.search) routers.push(searchRouter({ ...deps, search: deps.search }));
  routers.push(openApiRouter([...routers], { prefix: API_PREFIX }));
  for (const router of routers) {
    router.prefix(API_PREFIX);
    app.use(router.routes()).use(router.allowedMethods());
  }
  return app;
}
