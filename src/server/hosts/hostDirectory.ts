import { Subject, type Observable } from 'rxjs';
import { HostRequestError } from '../../protocol/hostErrors';
import { JSON_RPC_ERROR } from '../../protocol/jsonRpc';
import type { HostLink, HostRequestOptions } from './hostLink';
import type { HostMethod, HostParams, HostResult } from '../../protocol/hostContract';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../protocol/protocolVersion';
import { HOST_ERROR_HTTP_STATUS } from '../../protocol/hostErrors';
import type { Registry } from '../../registry/registry';
import type { HostRecord } from '../../registry/records';
import { notFound, Problem } from '../http/problem';

/**
 * A host as `GET /hosts` shows it: the stored record plus whether a link is up right now. While it is,
 * `lastSeenAt` is the time of asking: heartbeats drop a silent link within two intervals, so a live link is
 * as good as a sighting; once the link drops it says when.
 */
export type HostView = HostRecord & { online: boolean };

/**
 * A host's link came up (after its record is stored) or went away. A link replaced by a newer one of the
 * same host is not a departure: only the current link's close is reported.
 */
export type HostChange = { kind: 'attached'; host: HostRecord; link: HostLink } | { kind: 'detached'; hostId: string };

/**
 * The server's side of every host link, whatever the transport: registers a host when its daemon says hello,
 * marks it offline when the link drops, and turns host requests into HTTP problems (502 offline, 504 timeout).
 */
export interface HostDirectory {
  /** Refuses a different protocol version (throws ProtocolMismatch) before anything is stored. */
  attach(link: HostLink): Promise<HostRecord>;
  isOnline(hostId: string): boolean;
  /** The live link, for callers that speak JSON-RPC themselves (the intake). */
  linkOf(hostId: string): HostLink | undefined;
  call<M extends HostMethod>(hostId: string, method: M, params: HostParams<M>, options?: HostRequestOptions<M>): Promise<HostResult<M>>;
  list(): Promise<HostView[]>;
  get(hostId: string): Promise<HostView | undefined>;
  closeAll(): Promise<void>;
  /** Presence and thread re-opening follow this instead of wrapping `attach`. */
  readonly changes$: Observable<HostChange>;
}

export class ProtocolMismatch extends Error {
  constructor(readonly daemonVersion: number) {
    super(`host daemon protocol ${daemonVersion} is not the server's ${HOST_DAEMON_PROTOCOL_VERSION}`);
  }
}

export function createHostDirectory(deps: { registry: Registry; now?: () => Date }): HostDirectory {
  const links = new Map<string, HostLink>();
  const changes = new Subject<HostChange>();
  const now = deps.now ?? (() => new Date());
  const view = (record: HostRecord): HostView =>
    links.has(record.id) ? { ...record, online: true, lastSeenAt: now().toISOString() } : { ...record, online: false };

  return {
    async attach(link) {
      const { hello } = link;
      if (hello.protocolVersion !== HOST_DAEMON_PROTOCOL_VERSION) throw new ProtocolMismatch(hello.protocolVersion);
      const record: HostRecord = {
        id: hello.hostId,
        name: hello.name,
        platform: hello.platform,
        protocolVersion: hello.protocolVersion,
        providers: hello.providers,
        lastSeenAt: now().toISOString(),
        ...(link.embedded ? { embedded: true } : {}),
      };
      await deps.registry.hosts.put(record);
      // A reconnecting daemon replaces its old link; the old one's close must not mark the host offline.
      const previous = links.get(record.id);
      links.set(record.id, link);
      if (previous) await previous.close();
      link.closed$.subscribe({
        complete: () => {
          if (links.get(record.id) !== link) return;
          links.delete(record.id);
          // An update, not a put: the link of a removed host (DELETE /hosts/:id) closes after its record went.
          deps.registry.hosts.update({ ...record, lastSeenAt: now().toISOString() }).catch(() => {});
          changes.next({ kind: 'detached', hostId: record.id });
        },
      });
      changes.next({ kind: 'attached', host: record, link });
      return record;
    },
    changes$: changes.asObservable(),
    isOnline: (hostId) => links.has(hostId),
    linkOf: (hostId) => links.get(hostId),
    async call(hostId, method, params, options) {
      const link = links.get(hostId);
      if (!link) {
        if (!(await deps.registry.hosts.get(hostId))) throw notFound('host', hostId);
        throw new Problem(502, 'host_offline', `host ${hostId} is not connected`);
      }
      try {
        return await link.request(method, params, options);
      } catch (error) {
        throw problemFromHostError(error, hostId, method);
      }
    },
    async list() {
      return (await deps.registry.hosts.find()).map(view);
    },
    async get(hostId) {
      const record = await deps.registry.hosts.get(hostId);
      return record && view(record);
    },
    async closeAll() {
      const all = [...links.values()];
      links.clear();
      await Promise.all(all.map((link) => link.close()));
    },
  };
}

export function problemFromHostError(error: unknown, hostId: string, method: string): Problem {
  if (!(error instanceof HostRequestError)) return new Problem(502, 'host_error', `host ${hostId} failed ${method}`);
  const { failure } = error;
  switch (failure.kind) {
    case 'offline':
      return new Problem(502, 'host_offline', `host ${hostId} went offline during ${method}`);
    case 'timeout':
      return new Problem(504, 'host_timeout', `host ${hostId} did not answer ${method} within ${failure.timeoutMs} ms`);
    case 'bad_result':
      return new Problem(502, 'host_error', `host ${hostId} answered ${method} with an unexpected result`);
    case 'refused': {
      // A daemon older than the server's contract does not know every command: say so, not "host error".
      if (failure.rpcCode === JSON_RPC_ERROR.methodNotFound)
        return new Problem(
          501,
          'host_command_unsupported',
          `host ${hostId} runs a daemon without ${method}; update the daemon on that host`,
          { method },
        );
      // Own keys only: a remote daemon's code such as `constructor` must not find Object.prototype's.
      const status =
        failure.hostCode && Object.hasOwn(HOST_ERROR_HTTP_STATUS, failure.hostCode)
          ? HOST_ERROR_HTTP_STATUS[failure.hostCode as keyof typeof HOST_ERROR_HTTP_STATUS]
          : undefined;
      if (!status) return new Problem(502, 'host_error', `host ${hostId} failed ${method}: ${error.message}`);
      return new Problem(status, failure.hostCode!, error.message);
    }
  }
}
