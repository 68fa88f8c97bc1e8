import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The cookie the page signs in with; HttpOnly, so the page's own scripts never see it. */
export const SESSION_COOKIE = 'ats_session';

/** How long a browser stays signed in without opening the sign-in URL again. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface BrowserSession {
  id: string;
  expiresAt: number;
}

/**
 * Browser sessions as signed cookie values, `<id>.<expiresAtMs>.<hmac>`, keyed by the server token: they
 * survive a server restart, every replica of one database accepts them (they share the token), and a new
 * token signs every browser out. Sign-out remembers the id until it would expire anyway, in this process.
 */
export interface BrowserSessions {
  create(now?: number): { session: BrowserSession; cookieValue: string };
  /** The session a cookie value names, when its signature holds and it is neither expired nor signed out. */
  verify(cookieValue: string | undefined, now?: number): BrowserSession | undefined;
  revoke(session: BrowserSession): void;
}

export function createBrowserSessions(token: string): BrowserSessions {
  const revoked = new Map<string, number>();
  const sign = (id: string, expiresAt: number) => createHmac('sha256', token).update(`ats-session:${id}.${expiresAt}`).digest();
  const forgetExpired = (now: number) => {
    for (const [id, expiresAt] of revoked) if (expiresAt <= now) revoked.delete(id);
  };
  return {
    create(now = Date.now()) {
      const session = { id: randomBytes(18).toString('base64url'), expiresAt: now + SESSION_TTL_MS };
      return { session, cookieValue: `${session.id}.${session.expiresAt}.${sign(session.id, session.expiresAt).toString('base64url')}` };
    },
    verify(cookieValue, now = Date.now()) {
      const match = /^([A-Za-z0-9_-]{24})\.([0-9]{1,16})\.([A-Za-z0-9_-]{43})$/.exec(cookieValue ?? '');
      if (!match) return undefined;
      const [, id, expires, signature] = match as unknown as [string, string, string, string];
      const expiresAt = Number(expires);
      const given = Buffer.from(signature, 'base64url');
      const expected = sign(id, expiresAt);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      if (expiresAt <= now || revoked.has(id)) return undefined;
      return { id, expiresAt };
    },
    revoke(session) {
      forgetExpired(Date.now());
      revoked.set(session.id, session.expiresAt);
    },
  };
}
