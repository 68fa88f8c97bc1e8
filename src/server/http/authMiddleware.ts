import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Context, Middleware } from 'koa';
import { SESSION_COOKIE, type BrowserSession, type BrowserSessions } from './browserSessions';
import { Problem } from './problem';
import { ENROLL_PATH, isHostCredential } from '../../protocol/hostEnrollment';

const API_PATH = /^\/api\//;

/**
 * API routes anyone may call: a load balancer's health probe, the page's sign-in and sign-out (they check the
 * token or the cookie themselves), the API's own description, and a daemon's enrollment (its one-time code is
 * its key). Everything outside `/api/` (the page and its assets) needs no token either: the page holds no
 * data until it signs in.
 */
const PUBLIC_PATHS = new Set(['/api/v1/health', '/api/v1/session', '/api/v1/openapi.json', ENROLL_PATH]);

/** Methods a cross-site form or script could send with the browser's cookie attached. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Who a request came from, for the routes: an API client's bearer token, or a signed-in browser. */
export type Caller = { kind: 'bearer' } | { kind: 'session'; session: BrowserSession } | { kind: 'anonymous' };

/**
 * `Authorization: Bearer <token>`, or the page's session cookie, on every /api route except the public ones;
 * 401 problem otherwise. A cookie comes with the browser whoever asks, so a change made with one must also
 * come from this origin (403 `cross_origin_request`); a bearer token is never sent by a browser on its own.
 * A host credential (issue 30) is refused on every route, public ones included (403 `host_credential_not_allowed`):
 * it attaches its host over the daemon link and does nothing else.
 */
export function authMiddleware(token: string, sessions: BrowserSessions): Middleware {
  return async (ctx, next) => {
    if (API_PATH.test(ctx.path) && isHostCredential(bearerOf(ctx.headers) ?? ''))
      throw new Problem(
        403,
        'host_credential_not_allowed',
        'a host credential only attaches its own host over /api/v1/daemon; call the API with the server token or from the signed-in page',
      );
    ctx.state.caller = callerOf(ctx, token, sessions);
    // Signing in from another site's page (login CSRF) is refused too; curl sends no Origin and may sign in.
    if (ctx.state.caller.kind === 'session' || (PUBLIC_PATHS.has(ctx.path) && ctx.get('origin'))) requireSameOrigin(ctx);
    if (API_PATH.test(ctx.path) && !PUBLIC_PATHS.has(ctx.path) && ctx.state.caller.kind === 'anonymous') {
      ctx.set('WWW-Authenticate', 'Bearer realm="agent-thread-service"');
      throw new Problem(
        401,
        'unauthorized',
        'send Authorization: Bearer <token> (the token is in <dataDir>/token unless ATS_TOKEN is set), or sign in by the URL `npm start` prints',
      );
    }
    await next();
  };
}

function callerOf(ctx: Context, token: string, sessions: BrowserSessions): Caller {
  // A bearer header decides on its own: a wrong token is refused even when a valid cookie came along.
  if (ctx.headers.authorization !== undefined) return hasBearer(ctx.headers, token) ? { kind: 'bearer' } : { kind: 'anonymous' };
  const session = sessions.verify(ctx.cookies.get(SESSION_COOKIE));
  return session ? { kind: 'session', session } : { kind: 'anonymous' };
}

/**
 * The Origin header (which a page cannot forge) must name this server's Host. Without one, a browser's
 * `Sec-Fetch-Site: same-origin` is taken instead; a request with neither is refused, as a browser always sends one.
 */
function requireSameOrigin(ctx: Context): void {
  if (SAFE_METHODS.has(ctx.method)) return;
  const origin = ctx.get('origin');
  if (origin ? hostOf(origin) === ctx.host.toLowerCase() : ctx.get('sec-fetch-site') === 'same-origin') return;
  throw new Problem(
    403,
    'cross_origin_request',
    `a ${ctx.method} with the session cookie must come from this server's own page (Origin ${origin || 'missing'}, Host ${ctx.host})`,
  );
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Shared with the WebSocket upgrades, which never pass through Koa. Constant-time so timing leaks nothing. */
export function hasBearer(headers: IncomingHttpHeaders, token: string): boolean {
  const bearer = bearerOf(headers);
  return bearer !== undefined && sameSecret(bearer, token);
}

/** The secret of `Authorization: Bearer <secret>`, any case of "Bearer". */
export function bearerOf(headers: IncomingHttpHeaders): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
}

/**
 * Compares fixed-length digests, not the strings: an early return on a length mismatch would tell a prober
 * the token's length, and timingSafeEqual itself throws on buffers of different lengths.
 */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), sha256(expected));
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
