import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { LINK_CLOSE } from '../../protocol/daemonLink';
import { isHostCredential } from '../../protocol/hostEnrollment';
import { bearerOf, hasBearer } from '../http/authMiddleware';
import type { HostAccess } from '../hostAccess/hostAccess';
import type { HostRevocations } from '../hostAccess/revocations';

/**
 * How a daemon link was let in: with a host credential (issue 30), which attaches its own host only; or with
 * the server's token, which attaches any host id that was not removed (deprecated, one release).
 */
export type LinkGrant = { via: 'credential'; hostId: string; credential: string } | { via: 'token' };

/** Why a hello is turned down: the close code and its reason (at most 123 bytes). */
export type LinkRefusalReason = { code: number; reason: string };

export const REVOKED_REASON = 'this host was removed from the server; enroll it again (npm run daemon -- --enroll CODE)';

export interface LinkGrants {
  /**
   * The upgrade's check: the bearer is the token (answered at once, as before) or a current host credential
   * (looked up in the registry). Remembers the grant for the socket's hello.
   */
  authorize(req: IncomingMessage): boolean | Promise<boolean>;
  grantOf(req: IncomingMessage): LinkGrant | undefined;
  /**
   * Holds `socket` as a link of `hostId` from now until it closes, so a revocation closes it even mid-hello,
   * then checks the grant once more (a revocation between the upgrade and now), so none slips through.
   */
  admit(grant: LinkGrant, hostId: string, socket: WebSocket): Promise<LinkRefusalReason | undefined>;
  stop(): void;
}

export function createLinkGrants(deps: {
  token: string;
  access: HostAccess;
  revocations: Pick<HostRevocations, 'revoked$' | 'recheck$'>;
  log(message: string): void;
}): LinkGrants {
  const grants = new WeakMap<IncomingMessage, LinkGrant>();
  const held = new Map<WebSocket, { hostId: string; grant: LinkGrant }>();

  const refusalOf = async (grant: LinkGrant, hostId: string): Promise<LinkRefusalReason | undefined> => {
    if (grant.via === 'credential') {
      if (grant.hostId !== hostId) return { code: LINK_CLOSE.wrongHost, reason: `this credential attaches host ${grant.hostId} only` };
      return (await deps.access.hostOf(grant.credential)) === hostId ? undefined : { code: LINK_CLOSE.revoked, reason: REVOKED_REASON };
    }
    return (await deps.access.isRevoked(hostId)) ? { code: LINK_CLOSE.revoked, reason: REVOKED_REASON } : undefined;
  };

  const closeRevoked = (socket: WebSocket, hostId: string) => {
    if (!held.delete(socket)) return;
    deps.log(`host ${hostId} was removed: its link is closed (${LINK_CLOSE.revoked})`);
    socket.close(LINK_CLOSE.revoked, REVOKED_REASON);
    // A peer that does not answer the close frame is dropped: the host must be gone at once.
    setTimeout(() => socket.terminate(), 1000).unref();
  };

  const revoked = deps.revocations.revoked$.subscribe((hostId) => {
    for (const [socket, link] of held) if (link.hostId === hostId) closeRevoked(socket, hostId);
  });
  const rechecked = deps.revocations.recheck$.subscribe(() => {
    for (const [socket, { hostId, grant }] of held) {
      refusalOf(grant, hostId).then(
        (refusal) => refusal && closeRevoked(socket, hostId),
        (error: unknown) => deps.log(`daemon link: re-checking host ${hostId} failed: ${String(error)}`),
      );
    }
  });

  return {
    authorize(req) {
      const bearer = bearerOf(req.headers);
      if (bearer !== undefined && isHostCredential(bearer)) {
        return deps.access.hostOf(bearer).then((hostId) => {
          if (hostId) grants.set(req, { via: 'credential', hostId, credential: bearer });
          return hostId !== undefined;
        });
      }
      if (!hasBearer(req.headers, deps.token)) return false;
      grants.set(req, { via: 'token' });
      return true;
    },
    grantOf: (req) => grants.get(req),
    async admit(grant, hostId, socket) {
      held.set(socket, { hostId, grant });
      socket.once('close', () => held.delete(socket));
      const refusal = await refusalOf(grant, hostId);
      if (refusal) held.delete(socket);
      return refusal;
    },
    stop() {
      revoked.unsubscribe();
      rechecked.unsubscribe();
    },
  };
}
