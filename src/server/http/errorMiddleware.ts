import type { Middleware } from 'koa';
import { Problem, PROBLEM_CONTENT_TYPE, problemBody } from './problem';

/**
 * Registered first: turns every thrown error into `application/problem+json`. Problems keep their status and
 * code; errors from Koa itself (`ctx.throw`, http-errors) keep their status; anything else is a 500 whose
 * details go to the log only, never a stack trace in a body.
 */
export function errorMiddleware(log: (message: string) => void): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      // A stream that wrote its own response (SSE) is done; there is nothing left to turn into a problem.
      if (ctx.respond === false) return;
      if (ctx.body === undefined || ctx.body === null) {
        // The routers' allowedMethods() set a bare 405/501; give it the same problem shape as everything else.
        if (ctx.status === 404) throw new Problem(404, 'route_not_found', `no route ${ctx.method} ${ctx.path}`);
        if (ctx.status === 405 || ctx.status === 501) {
          const allow = ctx.response.get('Allow');
          throw new Problem(
            405,
            'method_not_allowed',
            `${ctx.method} is not allowed on ${ctx.path}${allow ? ` (allowed: ${allow})` : ''}`,
            { allow },
          );
        }
      }
    } catch (error) {
      if (ctx.res.headersSent) return log(`${ctx.method} ${ctx.path} failed after its response started: ${String(error)}`);
      const problem = toProblem(error);
      if (problem.status >= 500 && !(error instanceof Problem))
        log(`${ctx.method} ${ctx.path} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      ctx.status = problem.status;
      ctx.type = PROBLEM_CONTENT_TYPE;
      ctx.body = problemBody(problem);
      if (problem.status === 405 && typeof problem.extensions.allow === 'string') ctx.set('Allow', problem.extensions.allow);
    }
  };
}

function toProblem(error: unknown): Problem {
  if (error instanceof Problem) return error;
  const status = (error as { status?: unknown })?.status;
  if (typeof status === 'number' && status >= 400 && status < 500 && (error as { expose?: boolean }).expose) {
    return new Problem(status, 'bad_request', (error as Error).message);
  }
  return new Problem(500, 'internal_error', 'the server failed to handle this request');
}
