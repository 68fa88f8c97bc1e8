import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { sameSecret, type Caller } from '../http/authMiddleware';
import { SESSION_COOKIE, type BrowserSessions } from '../http/browserSessions';
import { Problem } from '../http/problem';
import { addRoute, apiRouter } from '../http/routeSpec';

/** The token from the sign-in URL's fragment; a bearer header may carry it instead (then the body may be empty). */
export const CreateSessionBodySchema = z.strictObject({ token: z.string().min(1).optional() });
export const SessionSchema = z.strictObject({
  signedIn: z.literal(true),
  via: z.enum(['bearer', 'session']),
  expiresAt: z.string().nullable(),
});
export type Session = z.infer<typeof SessionSchema>;

/**
 * The page's sign-in (docs/api.md#signing-in-from-a-browser): `POST /session` trades the token for an HttpOnly,
 * SameSite=Strict cookie; `GET /session` says who is signed in; `DELETE /session` signs the browser out.
 */
export function sessionRouter(deps: { token: string; sessions: BrowserSessions; maxBodyBytes: number }): Router {
  const router = apiRouter({ maxBodyBytes: deps.maxBodyBytes });

  const tag = 'session';
  addRoute(
    router,
    {
      method: 'post',
      path: '/session',
      summary: 'Sign a browser in: trade the token (body or bearer) for the session cookie',
      tag,
      public: true,
      body: CreateSessionBodySchema,
      bodyMayBeAbsent: true,
      responses: { 201: { description: 'Signed in; Set-Cookie ats_session', schema: SessionSchema } },
    },
    (ctx, { body }) => {
      const caller = ctx.state.caller as Caller;
      const tokenOk = body.token !== undefined ? sameSecret(body.token, deps.token) : caller.kind === 'bearer';
      if (!tokenOk)
        throw new Problem(401, 'invalid_token', 'the token does not match this server’s (open the URL `npm start` printed again)');
      const { session, cookieValue } = deps.sessions.create();
      setCookie(ctx, cookieValue, session.expiresAt);
      ctx.status = 201;
      ctx.body = { signedIn: true, via: 'session', expiresAt: new Date(session.expiresAt).toISOString() } satisfies Session;
    },
  );

  addRoute(
    router,
    {
      method: 'get',
      path: '/session',
      summary: 'Who is signed in (401 when nobody)',
      tag,
      public: true,
      responses: { 200: { description: 'Signed in', schema: SessionSchema } },
    },
    (ctx) => {
      const caller = ctx.state.caller as Caller;
      if (caller.kind === 'anonymous')
        throw new Problem(401, 'unauthorized', 'not signed in: open the URL `npm start` printed, or send Authorization: Bearer <token>');
      ctx.body = {
        signedIn: true,
        via: caller.kind,
        expiresAt: caller.kind === 'session' ? new Date(caller.session.expiresAt).toISOString() : null,
      } satisfies Session;
    },
  );

  addRoute(
    router,
    {
      method: 'delete',
      path: '/session',
      summary: 'Sign the browser out',
      tag,
      public: true,
      responses: { 204: { description: 'Signed out; the cookie is cleared' } },
    },
    (ctx) => {
      const caller = ctx.state.caller as Caller;
      if (caller.kind === 'session') deps.sessions.revoke(caller.session);
      setCookie(ctx, '', 0);
      ctx.status = 204;
    },
  );

  return router;
}

function setCookie(ctx: Context, value: string, expiresAt: number): void {
  ctx.cookies.set(SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    // Behind plain http (127.0.0.1) a Secure cookie would never come back; over TLS it must not leave it.
    secure: ctx.secure,
    // An empty value makes `cookies` write an expiry in 1970: the browser drops it.
    ...(value ? { expires: new Date(expiresAt) } : {}),
    overwrite: true,
  });
}
