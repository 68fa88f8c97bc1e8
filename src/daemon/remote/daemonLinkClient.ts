import WebSocket from 'ws';
import { tlsDialFailure } from '../../link/tlsTrust';
import type { HostHello } from '../../protocol/hostContract';
import type { JsonRpcResponse, ServeRequest } from '../../protocol/jsonRpc';
import { DAEMON_LINK_PATH, LINK_METHOD, LinkHelloResultSchema } from '../../protocol/daemonLink';
import { linkCloseVerdict } from './linkCloseVerdict';
import { DEFAULT_HEARTBEAT_MS, startPingHeartbeat } from '../../link/pingHeartbeat';
import { createRpcPeer, LinkClosedError, type RpcPeer } from '../../link/rpcPeer';
import { reconnectDelay, type ReconnectPolicy } from './reconnectDelay';

export interface DaemonLinkClientOptions {
  /**
   * The server's base URL, `http://host:port` (or `ws://…`); the link lives at /api/v1/daemon. A comma list
   * names replicas of one database: each dial (first, and after every drop) goes to the next in turn.
   */
  serverUrl: string;
  /** PEM CA certificates trusted instead of the system's for `https://`/`wss://` servers (`--ca`). */
  ca?: string;
  /** This host's credential (or, deprecated, the server's token): the upgrade's bearer. */
  token: string;
  /** How the refusal names it (default `the token`) and what to do about it (default `check --token`). */
  refused?: { what: string; advice: string };
  /** Ping interval; undefined: the server's, from its hello answer (DEFAULT_HEARTBEAT_MS until then). */
  heartbeatMs?: number;
  reconnect: ReconnectPolicy;
  maxPayloadBytes: number;
  /** Where this daemon's host id is kept, named in the advice when the server says the id is taken. */
  identityFile?: string;
  log(message: string): void;
}

/** The setting that makes a private CA trusted, named in every refusal of an untrusted certificate. */
export const CA_SETTING = '--ca FILE (ATS_DAEMON_CA)';

/** Why the daemon must stop instead of redialling: retrying cannot fix any of these. */
export class LinkRefused extends Error {}

/** Requests made after `close` (or waiting when it came) fail with this; nothing will ever answer them. */
export class LinkStopped extends Error {}

/** Runs with a fresh link before anything else may use it (e.g. re-sending batches a crash left unacked). */
export type ReadyHook = (call: (method: string, params: unknown) => Promise<JsonRpcResponse>) => Promise<void>;

export interface DaemonLinkClient {
  /** Dials, says hello, serves the server's requests and redials after every drop until `close`. */
  start(daemon: { hello: HostHello; dispatch: ServeRequest }): void;
  /**
   * A request to the server once the link is up (waits while it is down). Rejects with LinkClosedError when
   * the link drops before the answer: the caller decides whether re-sending is safe.
   */
  request(method: string, params: unknown): Promise<JsonRpcResponse>;
  onReady(hook: ReadyHook): void;
  /** Settles with the reason when the server refuses the daemon for good (wrong token, other protocol, host removed). */
  readonly refused: Promise<LinkRefused>;
  /** True between a successful hello and the next drop. */
  isConnected(): boolean;
  /** The largest frame the server takes, as its last hello said (until then, our own limit). */
  maxFrameBytes(): number;
  close(): Promise<void>;
}

export function createDaemonLinkClient(options: DaemonLinkClientOptions): DaemonLinkClient {
  const urls = linkUrls(options.serverUrl);
  // Starts at the first; each redial moves on, so a replica that died is left at once for the next one.
  let urlIndex = 0;
  let url = urls[0]!;
  const hooks: ReadyHook[] = [];
  let daemon: { hello: HostHello; dispatch: ServeRequest } | undefined;
  let current: RpcPeer | undefined;
  let waiters: { resolve(peer: RpcPeer): void; reject(error: Error): void }[] = [];
  let failures = 0;
  let serverMaxPayloadBytes = options.maxPayloadBytes;
  let closed = false;
  let socket: WebSocket | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let refuse!: (reason: LinkRefused) => void;
  const refused = new Promise<LinkRefused>((resolve) => (refuse = resolve));

  // The owner reports the refusal (the CLI prints it and exits); logging it here too would say it twice.
  const giveUp = (message: string) => {
    closed = true;
    queueMicrotask(stopWaiters);
    refuse(new LinkRefused(message));
  };

  const redial = (delay = reconnectDelay(failures++, options.reconnect)) => {
    if (closed) return;
    urlIndex = (urlIndex + 1) % urls.length;
    url = urls[urlIndex]!;
    retryTimer = setTimeout(dial, delay);
  };

  // Not a refusal for good: the other holder of the id may be a dead link the server is about to drop, or a
  // daemon that stops. But retrying cannot help soon, so the retry waits the longest backoff, every time.
  const idTaken = (reason: string) => {
    const delay = options.reconnect.maxMs;
    const identity = options.identityFile ?? "this daemon's host.json";
    options.log(
      `the server refused this daemon: ${reason}. Host ${daemon!.hello.hostId} is online already. If this data dir was ` +
        `copied from another daemon, stop this one, delete ${identity} and start it again to get a new host id. ` +
        `Retrying in ${delay / 1000} s.`,
    );
    redial(delay);
  };

  const dial = () => {
    if (closed || !daemon) return;
    const dialed = url;
    const ws = new WebSocket(dialed, {
      headers: { authorization: `Bearer ${options.token}` },
      maxPayload: options.maxPayloadBytes,
      ca: options.ca,
    });
    socket = ws;
    let refusedStatus: number | undefined;
    let untrusted: string | undefined;
    ws.on('error', (error) => {
      const status = /Unexpected server response: (\d+)/.exec(error.message)?.[1];
      refusedStatus = status === undefined ? undefined : Number(status);
      const tls = tlsDialFailure(error, dialed, CA_SETTING);
      // An untrusted certificate stays untrusted however often it is dialled: the daemon stops and says why.
      if (tls?.untrusted) untrusted = tls.message;
      else if (refusedStatus !== 401) options.log(`link to ${dialed}: ${tls?.message ?? error.message}`);
    });
    ws.on('close', (code, reasonBuffer) => {
      const reason = reasonBuffer.toString('utf8');
      const wasUp = current?.socket === ws;
      if (wasUp) current = undefined;
      const verdict = linkCloseVerdict({ dialed, code, reason, refusedStatus, untrusted, refused: options.refused });
      if (verdict.kind === 'give-up') return giveUp(verdict.message);
      if (verdict.kind === 'id-taken') return idTaken(verdict.reason);
      if (wasUp) options.log(`link to ${dialed} dropped (${code}${reason ? ` ${reason}` : ''}); reconnecting`);
      redial();
    });
    ws.on('open', () => {
      const peer = createRpcPeer(
        ws,
        (request, context) => daemon!.dispatch(request, context),
        options.log,
        () => serverMaxPayloadBytes,
      );
      let stopHeartbeat = startPingHeartbeat(ws, options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
      const adoptHeartbeat = (serverMs: number) => {
        if (options.heartbeatMs !== undefined) return;
        stopHeartbeat();
        stopHeartbeat = startPingHeartbeat(ws, serverMs);
      };
      hello(peer, adoptHeartbeat).catch((error: unknown) => {
        if (error instanceof LinkClosedError) return;
        options.log(`link hello failed: ${String(error)}`);
        // A refused hello is followed by the server's close frame, whose code says whether to redial; a
        // server that does not close is dropped after a moment and redialled.
        setTimeout(() => ws.terminate(), 1000).unref();
      });
    });
  };

  const hello = async (peer: RpcPeer, adoptHeartbeat: (serverMs: number) => void) => {
    const answer = await peer.call(LINK_METHOD.hello, daemon!.hello);
    if ('error' in answer) throw new Error(answer.error.message);
    const accepted = LinkHelloResultSchema.parse(answer.result);
    serverMaxPayloadBytes = accepted.maxPayloadBytes;
    adoptHeartbeat(accepted.heartbeatMs);
    for (const hook of hooks) await hook((method, params) => peer.call(method, params));
    if (peer.socket.readyState !== WebSocket.OPEN) return;
    failures = 0;
    current = peer;
    options.log(`linked to ${peer.socket.url} as ${daemon!.hello.hostId}`);
    const ready = waiters;
    waiters = [];
    ready.forEach((waiter) => waiter.resolve(peer));
  };

  const linked = (): Promise<RpcPeer> =>
    current ? Promise.resolve(current) : new Promise((resolve, reject) => waiters.push({ resolve, reject }));

  const stopWaiters = () => {
    const stopped = waiters;
    waiters = [];
    stopped.forEach((waiter) => waiter.reject(new LinkStopped('the daemon link stopped')));
  };

  return {
    start(given) {
      daemon = given;
      dial();
    },
    async request(method, params) {
      if (closed) throw new LinkStopped('the daemon link is closed');
      return (await linked()).call(method, params);
    },
    onReady: (hook) => hooks.push(hook),
    refused,
    isConnected: () => current !== undefined,
    maxFrameBytes: () => serverMaxPayloadBytes,
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      stopWaiters();
      if (!socket || socket.readyState === WebSocket.CLOSED) return;
      const gone = new Promise<void>((resolve) => socket!.once('close', () => resolve()));
      socket.close(1000, 'the daemon is stopping');
      const timer = setTimeout(() => socket?.terminate(), 1000);
      await gone;
      clearTimeout(timer);
    },
  };
}

/** A comma list of servers (replicas of one database) → their link URLs, in order. */
export function linkUrls(serverList: string): string[] {
  return serverList
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server !== '')
    .map(linkUrl);
}

/** `http://h:p` → `ws://h:p/api/v1/daemon` (https → wss); a path already ending in it is kept. */
export function linkUrl(serverUrl: string): string {
  const url = new URL(serverUrl);
  url.protocol = url.protocol === 'https:' || url.protocol === 'wss:' ? 'wss:' : 'ws:';
  if (!url.pathname.endsWith(DAEMON_LINK_PATH)) url.pathname = url.pathname.replace(/\/$/, '') + DAEMON_LINK_PATH;
  return url.toString();
}
