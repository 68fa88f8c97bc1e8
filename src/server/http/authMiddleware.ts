import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Middleware } from 'koa';
import { Problem } from './problem';

/** Routes anyone may call: a load balancer's health probe must not need the token. */
const PUBLIC_PATHS = new Set(['/api/v1/health']);

/** `Authorization: Bearer <token>` on every /api/v1 route except health; 401 problem otherwise. */
export function authMiddleware(token: string): Middleware {
  return async (ctx, next) => {
    if (!PUBLIC_PATHS.has(ctx.path) && !hasBearer(ctx.headers, token)) {
      ctx.set('WWW-Authenticate', 'Bearer realm="agent-thread-service"');
      throw new Problem(401, 'unauthorized', 'send Authorization: Bearer <token> (the token is in <dataDir>/token unless ATS_TOKEN is set)');
    }
    await next();
  };
}

/** Shared with the WebSocket upgrades, which never pass through Koa. Constant-time so timing leaks nothing. */
export function hasBearer(headers: IncomingHttpHeaders, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  return match !== null && sameSecret(match[1]!, token);
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
