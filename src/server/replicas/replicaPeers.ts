import path from 'node:path';
import { Subject } from 'rxjs';
import WebSocket from 'ws';
import { tlsDialFailure, readTrustedCa } from '../../link/tlsTrust';
import type { HostHello } from '../../protocol/hostContract';
import { HostRequestError, type HostRequestFailure } from '../../protocol/hostErrors';
import type { HostLink } from '../hosts/hostLink';
import { serveMethods } from '../../protocol/serveMethods';
import { createRpcPeer, type RpcPeer } from '../../link/rpcPeer';
import { startPingHeartbeat } from '../../link/pingHeartbeat';
import { withRequestTimeout } from '../hosts/withRequestTimeout';
import { ForwardedOutcomeSchema, REPLICA_LINK_PATH, REPLICA_METHOD } from './replicaProtocol';

export interface ReplicaPeersOptions {
  token: string;
  heartbeatMs: number;
  maxPayloadBytes: number;
  /** How long to wait for a forwarded command's answer beyond the host's own timeout (the hop itself). */
  hopMarginMs: number;
  /** Trusted instead of the system's CAs for `https://` replicas; read at each dial, so a new CA needs no restart. */
  caFile?: string;
  log(message: string): void;
}

const CA_SETTING = '--tls-ca / ATS_TLS_CA';

/**
 * This replica's sockets to the others, one per replica URL, opened on first use and again after a drop.
 * One socket per peer keeps forwarded commands in order (the intake relies on it for a thread's frames).
 */
export function createReplicaPeers(options: ReplicaPeersOptions) {
  const peers = new Map<string, Promise<RpcPeer>>();

  const dial = async (url: string): Promise<RpcPeer> => {
    const ca = options.caFile === undefined ? undefined : await readTrustedCa(path.resolve(options.caFile), CA_SETTING);
    return new Promise((resolve, reject) => {
      const target = new URL(REPLICA_LINK_PATH, url.replace(/^http/, 'ws'));
      const socket = new WebSocket(target, {
        headers: { authorization: `Bearer ${options.token}` },
        maxPayload: options.maxPayloadBytes,
        ca,
      });
      socket.on('error', (error) => {
        // A certificate problem is said in words that name the setting to change (an untrusted one: ATS_TLS_CA).
        const message = tlsDialFailure(error, url, CA_SETTING)?.message ?? error.message;
        options.log(`replica link to ${url}: ${message}`);
        reject(new Error(message));
      });
      socket.once('open', () => {
        const stopHeartbeat = startPingHeartbeat(socket, options.heartbeatMs);
        socket.once('close', stopHeartbeat);
        resolve(
          // Replicas do not take requests on this side: a gate that serves no method answers each with -32601.
          createRpcPeer(socket, serveMethods({}), options.log),
        );
      });
      socket.once('close', () => peers.delete(url));
    });
  };

  const peerOf = (url: string): Promise<RpcPeer> => {
    let peer = peers.get(url);
    if (!peer) {
      peer = dial(url);
      peers.set(url, peer);
      peer.catch(() => peers.delete(url));
    }
    return peer;
  };

  /**
   * A HostLink to a host attached to the replica at `url`: its commands travel to that replica, which runs
   * them on its own link to the host and sends back the result or the HostRequestError's kind (offline,
   * timeout, refused with the host's code), so callers here map them exactly as for a local host.
   */
  const linkTo = (url: string, hello: HostHello, defaultTimeoutMs: number): HostLink => {
    const closed$ = new Subject<void>();
    return {
      hello,
      closed$: closed$.asObservable(),
      async close() {
        closed$.complete();
      },
      async request(method, params, requestOptions) {
        const timeoutMs = requestOptions?.timeoutMs ?? defaultTimeoutMs;
        let peer: RpcPeer;
        try {
          peer = await peerOf(url);
        } catch (error) {
          throw new HostRequestError({ kind: 'offline' }, `the replica holding host ${hello.hostId} is unreachable: ${String(error)}`);
        }
        const answer = await withRequestTimeout(
          peer.call(REPLICA_METHOD.hostRequest, { hostId: hello.hostId, method, params, timeoutMs }),
          timeoutMs + options.hopMarginMs,
          method,
        ).catch((error: unknown) => {
          if (error instanceof HostRequestError) throw error;
          throw new HostRequestError({ kind: 'offline' }, `the replica holding host ${hello.hostId} went away during ${method}`);
        });
        if ('error' in answer)
          throw new HostRequestError(
            { kind: 'offline' },
            `the replica holding host ${hello.hostId} refused ${method}: ${answer.error.message}`,
          );
        const outcome = ForwardedOutcomeSchema.parse(answer.result);
        if (!outcome.ok) throw new HostRequestError(outcome.failure as HostRequestFailure, outcome.message);
        return outcome.result as never;
      },
    };
  };

  return {
    linkTo,
    async close() {
      const all = await Promise.allSettled(peers.values());
      peers.clear();
      for (const settled of all) if (settled.status === 'fulfilled') settled.value.socket.terminate();
    },
  };
}
export type ReplicaPeers = ReturnType<typeof createReplicaPeers>;
