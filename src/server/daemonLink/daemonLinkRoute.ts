import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { type JsonRpcError, type JsonRpcRequest, JSON_RPC_ERROR, jsonRpcError } from '../../protocol/jsonRpc';
import { serveMethods } from '../../protocol/serveMethods';
import type { HostHello } from '../../protocol/hostContract';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../protocol/protocolVersion';
import type { HostDirectory } from '../hosts/hostDirectory';
import type { UpgradeRoute } from '../http/upgrades';
import { startWsHeartbeat } from '../http/wsHeartbeat';
import { closeGoingAway } from '../http/closeGoingAway';
import type { EventStore } from '../../store/eventStore';
import { createLinkStoreMethods, storeFailureOf, type LinkOwner } from './linkStoreMethods';
import { createLinkThreadScope, type LinkThreadScopeDeps } from './linkThreadScope';
import { DAEMON_LINK_PATH, LINK_CLOSE, LINK_METHOD, LinkHelloParamsSchema, type LinkHelloResult } from '../../protocol/daemonLink';
import { createRpcPeer } from '../../link/rpcPeer';
import { wsHostLink } from './wsHostLink';
import { DUPLICATE_PROBE_MS } from './answersPing';
import { createHostIdClaims } from './hostIdClaims';
import { createLinkGrants, type LinkGrant } from './linkGrants';
import type { HostAccess } from '../hostAccess/hostAccess';
import type { HostRevocations } from '../hostAccess/revocations';

export { DAEMON_LINK_PATH };

export interface DaemonLinkDeps {
  /** The server's bearer token: still attaches any host that was not removed, for one release (docs/hosts.md). */
  token: string;
  /** Host credentials (`--enroll`): each attaches its own host only. */
  access: HostAccess;
  /** Removed hosts: their links close with 4006 (LINK_CLOSE.revoked). */
  revocations: Pick<HostRevocations, 'revoked$' | 'recheck$'>;
  hosts: HostDirectory;
  /** Where daemon batches land: the server's store, wrapped so SSE readers see the rows (publishingStore). */
  store: EventStore;
  /** Whose each thread is: a link reads and writes its own host's threads only (issue 37). */
  threads: Pick<LinkThreadScopeDeps, 'threadOf' | 'deleted$'>;
  log(message: string): void;
}

export interface DaemonLinkOptions {
  heartbeatMs: number;
  hostCommandTimeoutMs: number;
  /** A socket that has not said hello by then is closed (4002). */
  helloTimeoutMs: number;
  maxPayloadBytes: number;
  /** Wait for a linked host's ping answer before a hello with its id is refused (DUPLICATE_PROBE_MS). */
  duplicateProbeMs?: number;
}

/** Beyond the open's own timeout, how long the server may take to store a new thread's record (one durable write). */
const OPEN_TO_RECORD_MS = 10_000;

/** Short: a close reason holds at most 123 bytes. The server's log names the host and both addresses. */
const DUPLICATE_REASON = 'this host id is already connected; a copied daemon data dir needs a new identity';

/**
 * `ws://HOST:PORT/api/v1/daemon`: remote host daemons connect out to the server here. The first request must
 * be `link.hello`; a different protocol version is closed with 4001 and a reason naming both versions. A
 * host id that is online already (the embedded host's, or a linked daemon's that still answers a ping) is
 * closed with 4005 and the first link keeps it. A host credential attaches its own host id only (else
 * 4007); a removed host (`DELETE /hosts/:id`) is closed with 4006, at once if it is linked. After the hello
 * the host is attached to the directory (so host commands route to this socket) and its `store.*` requests
 * are served one at a time, in the order they came, so a read sees the link's earlier appends.
 */
export function createDaemonLinkRoute(deps: DaemonLinkDeps, options: DaemonLinkOptions): UpgradeRoute & { close(): Promise<void> } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayloadBytes });
  const stopHeartbeat = startWsHeartbeat(wss, options.heartbeatMs);
  const storeMethodsOfLink = createLinkStoreMethods(deps.store);
  const claims = createHostIdClaims(deps.hosts, options.duplicateProbeMs ?? DUPLICATE_PROBE_MS);
  const grants = createLinkGrants(deps);

  wss.on('connection', (socket: WebSocket, req: IncomingMessage) => {
    const from = req.socket.remoteAddress ?? 'unknown';
    const known = grants.grantOf(req);
    // Only sockets `authorize` let in get here; one it did not see is never given a grant by default.
    if (!known) return socket.terminate();
    const grant: LinkGrant = known;
    let hostId: string | undefined;
    let owner: LinkOwner | undefined;
    const helloTimer = setTimeout(() => socket.close(LINK_CLOSE.badHello, 'no link.hello in time'), options.helloTimeoutMs);
    socket.once('close', () => clearTimeout(helloTimer));
    socket.on('error', (error) => deps.log(`daemon link from ${from}: ${error.message}`));

    /** Refusals are thrown as LinkRefusal: the gate answers them as they are, after the socket's close. */
    const hello = async (daemonHello: HostHello): Promise<LinkHelloResult> => {
      if (daemonHello.protocolVersion !== HOST_DAEMON_PROTOCOL_VERSION) {
        const reason = `host daemon protocol ${daemonHello.protocolVersion} is not the server's ${HOST_DAEMON_PROTOCOL_VERSION}`;
        deps.log(`daemon link from ${from} (${daemonHello.hostId}) refused: ${reason}`);
        socket.close(LINK_CLOSE.protocolMismatch, reason);
        throw new LinkRefusal(reason);
      }
      clearTimeout(helloTimer);
      const refusal = await grants.admit(grant, daemonHello.hostId, socket);
      if (refusal) {
        deps.log(`daemon link from ${from} (${daemonHello.hostId}, ${daemonHello.name}) refused: ${refusal.reason}`);
        socket.close(refusal.code, refusal.reason);
        throw new LinkRefusal(refusal.reason);
      }
      const claim = await claims.claim(daemonHello.hostId);
      if ('refused' in claim) {
        deps.log(
          `daemon link from ${from} (${daemonHello.hostId}, ${daemonHello.name}) refused: host ${daemonHello.hostId} is already online: ${claim.refused}`,
        );
        socket.close(LINK_CLOSE.duplicateHost, DUPLICATE_REASON);
        throw new LinkRefusal(DUPLICATE_REASON);
      }
      // Gone while another link was probed: attaching it would list a host whose close has already passed.
      if (socket.readyState !== socket.OPEN) {
        claim.settle();
        throw new LinkRefusal('the link closed during its hello');
      }
      const scope = createLinkThreadScope(daemonHello.hostId, {
        ...deps.threads,
        // A new thread's record is stored right after its host answers the open: the command's timeout bounds it.
        vouchMs: options.hostCommandTimeoutMs + OPEN_TO_RECORD_MS,
      });
      socket.once('close', () => scope.close());
      const link = wsHostLink(peer, daemonHello, options.hostCommandTimeoutMs, ({ params }) => {
        const threadId = (params as { threadId?: unknown } | undefined)?.threadId;
        if (typeof threadId === 'string') scope.vouch(threadId);
      });
      try {
        await deps.hosts.attach(link);
        claim.settle({ socket, from });
      } catch (error) {
        claim.settle();
        throw error;
      }
      hostId = daemonHello.hostId;
      owner = { hostId, scope };
      deps.log(`host ${hostId} (${daemonHello.name}, ${daemonHello.platform}) connected from ${from}`);
      if (grant.via === 'token')
        deps.log(
          `host ${hostId} attached with the server's token, which is deprecated for daemons: enroll it (docs/hosts.md#enrolling-a-host)`,
        );
      return { protocolVersion: HOST_DAEMON_PROTOCOL_VERSION, heartbeatMs: options.heartbeatMs, maxPayloadBytes: options.maxPayloadBytes };
    };

    // `link.hello` first and once; until then no other request is looked at, not even an unknown method.
    const admit = (request: JsonRpcRequest): JsonRpcError | undefined => {
      if (request.method === LINK_METHOD.hello)
        return hostId ? jsonRpcError(JSON_RPC_ERROR.invalidRequest, 'hello was already said') : undefined;
      return hostId ? undefined : jsonRpcError(JSON_RPC_ERROR.invalidRequest, 'say link.hello first');
    };

    const serve = serveMethods(
      {
        [LINK_METHOD.hello]: {
          params: LinkHelloParamsSchema,
          handle: hello,
          invalidParams: () => socket.close(LINK_CLOSE.badHello, 'the first request must be a valid link.hello'),
        },
        // `admit` lets no store request through before the hello, so the owner is known by then.
        ...storeMethodsOfLink(() => owner!),
      },
      {
        admit,
        errorOf: (thrown, request) => (thrown instanceof LinkRefusal ? thrown.error : storeFailureOf(thrown, request)),
        log: deps.log,
        what: 'link request',
      },
    );
    const peer = createRpcPeer(socket, serve, deps.log);
  });

  return {
    path: DAEMON_LINK_PATH,
    authorize(req) {
      const refused = () => {
        deps.log(`daemon link from ${req.socket.remoteAddress ?? 'unknown'} refused: wrong or missing token or host credential`);
        return false;
      };
      const granted = grants.authorize(req);
      return typeof granted === 'boolean' ? granted || refused() : granted.then((yes) => yes || refused());
    },
    handle: (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
    async close() {
      stopHeartbeat();
      grants.stop();
      // 1001, not an application code: any WebSocket client knows "going away", and a daemon redials after it.
      await closeGoingAway(wss, 'the server is shutting down');
    },
  };
}

/** A hello the server turns down (-32600 with the reason); the socket is closed with the matching code first. */
class LinkRefusal extends Error {
  readonly error = jsonRpcError(JSON_RPC_ERROR.invalidRequest, this.message);
}
