import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_HEARTBEAT_MS } from '../link/pingHeartbeat';
import { AGENT_ISOLATIONS, DEFAULT_AGENT_START_TIMEOUT_MS } from '../daemon/providerFactories';
import { AgentProvidersSettingSchema } from './agentProvidersSetting';
import { AllowFullAccessSchema, BooleanSettingSchema } from './booleanSetting';
import { defaultDataDir } from './defaultDataDir';
import { loadSettings, withAbsoluteDataDir } from './loadSettings';
import { PathListSettingSchema } from './pathListSetting';

/** The folder holding package.json above this file: run from src/ (ts-node) or compiled from dist/node/src/. */
function packageRoot(from: string): string {
  for (let folder = from; path.dirname(folder) !== folder; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'package.json'))) return folder;
  }
  return path.resolve(from, '..', '..');
}

/**
 * Every limit of the server and its embedded daemon, with its default. Each can be set by a flag
 * (`--max-body-bytes 2048`) or an `ATS_*` env var (`ATS_MAX_BODY_BYTES=2048`); flags win over env vars.
 */
export const ConfigSchema = z.strictObject({
  /** TCP port; 0 picks any free port (the real one is printed on start). */
  port: z.coerce.number().int().min(0).max(65535).default(8787),
  /** Bind address. Loopback by default so nothing outside the machine reaches the API by accident. */
  host: z.string().min(1).default('127.0.0.1'),
  /** Registry, event store, token file and the embedded daemon's state live here (default: `defaultDataDir.ts`). */
  dataDir: z.string().min(1).default(defaultDataDir()),
  /** The built web page (`npm run build:web`, Vite's outDir) served at `/`. */
  webDir: z
    .string()
    .min(1)
    .default(path.join(packageRoot(__dirname), 'dist', 'web')),
  // HTTPS and WSS on the one port (docs/api.md#https).
  /** PEM certificate file (leaf first, then its chain); with `tlsKey` the server speaks HTTPS and WSS itself. */
  tlsCert: z.string().min(1).optional(),
  /** PEM private key file of `tlsCert`. */
  tlsKey: z.string().min(1).optional(),
  /** PEM CA file this server trusts, instead of the system's CAs, when it dials other replicas over https. */
  tlsCa: z.string().min(1).optional(),
  /** How often the certificate files are checked for a renewal (SIGHUP reloads them at once); `0`: SIGHUP only. */
  tlsWatchMs: z.coerce.number().int().min(0).default(10_000),
  /** Bearer token; when unset one is generated once and kept in `<dataDir>/token`. */
  token: z.string().min(16).optional(),
  /** Agent providers of the embedded daemon, comma-separated (`pi`), or `none` for intake-only threads. */
  agentProviders: AgentProvidersSettingSchema,
  /** `process`: each thread's agent in a process of its own (a crash ends only its run); `none`: inside the daemon. */
  agentIsolation: z.enum(AGENT_ISOLATIONS).default('process'),
  /** `1`: threads on this host may use the `full-access` permission mode (`ATS_ALLOW_FULL_ACCESS`). */
  allowFullAccess: AllowFullAccessSchema,
  /**
   * The only folders the embedded host exposes, `:`-separated (`ATS_ALLOW_ROOTS=~/work:/srv/repos`); unset:
   * every folder the server's user can read. A remote daemon has its own `--allow-root`.
   */
  allowRoots: PathListSettingSchema.optional(),
  /** Largest accepted HTTP request body (413 beyond). */
  maxBodyBytes: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  /** Largest accepted WebSocket frame on the intake; a bigger frame closes only that socket (1009). */
  intakeMaxPayloadBytes: z.coerce
    .number()
    .int()
    .positive()
    .default(8 * 1024 * 1024),
  /** Intake frames of one socket being stored at once; more wait their turn (bounds memory per sender). */
  intakeMaxInFlight: z.coerce.number().int().positive().default(256),
  /** Ping interval of WebSocket peers; a peer that misses one pong is dropped at the next tick. */
  wsHeartbeatMs: z.coerce.number().int().positive().default(DEFAULT_HEARTBEAT_MS),
  /** SSE comment-line heartbeat, so proxies and browsers keep an idle stream open. */
  sseHeartbeatMs: z.coerce.number().int().positive().default(15_000),
  /** Unsent bytes an SSE response may hold before it stops taking rows until its reader catches up. */
  sseMaxBufferedBytes: z.coerce
    .number()
    .int()
    .positive()
    .default(256 * 1024),
  /** An SSE response that stays full this long is reset; the client resumes with Last-Event-ID. */
  sseStallMs: z.coerce.number().int().positive().default(60_000),
  /** How long a thread of a host whose link dropped shows `host-reconnecting` before `waiting-for-host`. */
  hostReconnectGraceMs: z.coerce.number().int().positive().default(60_000),
  /** How long an enrollment code (`POST /api/v1/hosts/enrollments`) can be traded for a host credential. */
  enrollmentTtlMs: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60_000),
  /** A daemon must say `link.hello` this soon after connecting to /api/v1/daemon, else it is closed (4002). */
  daemonHelloTimeoutMs: z.coerce.number().int().positive().default(5_000),
  /** Largest WebSocket frame on a daemon link (a batch of events, a file read); a bigger one closes the link. */
  daemonLinkMaxPayloadBytes: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
  /**
   * How long a stop, or a prompt that settled with an error, waits for the run's `agent_end` before the turn
   * closes without it (`interrupted` / `failed`): a turn never stays open on a run that died.
   */
  turnGraceMs: z.coerce.number().int().positive().default(5_000),
  /**
   * How long a thread's agent with no open turn and no pending question stays up before the embedded daemon
   * closes it (`ATS_AGENT_IDLE_MS`); the next prompt starts it again on the same session. Threads marked
   * `keepAgentRunning` never close for idleness.
   */
  agentIdleMs: z.coerce.number().int().positive().default(600_000),
  /**
   * How long an agent's start (its process, ACP `initialize`, `session/new|load`) may take before it is a failed
   * start and its process is ended (`ATS_AGENT_START_TIMEOUT_MS`; DEFAULT_AGENT_START_TIMEOUT_MS, docs/agents.md).
   */
  agentStartTimeoutMs: z.coerce.number().int().positive().default(DEFAULT_AGENT_START_TIMEOUT_MS),
  /** How long a host command may take before the HTTP caller gets 504. */
  hostCommandTimeoutMs: z.coerce.number().int().positive().default(15_000),
  /** `1`: log how each path listing was answered (from its watched listing, or by revalidating stamps) and why a watch stopped. */
  debug: BooleanSettingSchema.default(false),
  /** How long a root nobody searches keeps its file watch (quick-open's live listing); `0`: never watch, revalidate by stamps. */
  pathWatchIdleMs: z.coerce.number().int().min(0).default(300_000),
  /** Default and largest `limit` of `GET /threads/:id/events`. */
  eventsPageDefault: z.coerce.number().int().positive().default(100),
  eventsPageMax: z.coerce.number().int().positive().default(1000),
  // The embedded event store (docs/events.md#the-embedded-store).
  /** `always`: an fsync per append before its ack; `batch`: appends arriving together share one (group commit); `off`: no fsync. */
  fsync: z.enum(['always', 'batch', 'off']).default('batch'),
  /**
   * No longer used: the store reads every page from the thread's file and holds no thread in memory (issue
   * 31). Still accepted, so a configuration that sets them starts as before.
   */
  storeOpenThreads: z.coerce.number().int().positive().default(64),
  storeOpenMb: z.coerce.number().int().positive().default(64),
  // Several servers on one PostgreSQL (docs/replicas.md).
  /** `postgres://user@host:port/db`: event store and registry in PostgreSQL, shared by replicas. Unset: nedb in `dataDir`. */
  databaseUrl: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'a postgres:// URL')
    .optional(),
  /** Connections this server holds at most (plus one for LISTEN). */
  databasePoolMax: z.coerce.number().int().positive().default(10),
  /** Connections holding thread locks (issue 37), apart from the pool: threads one replica changes at once. */
  databaseLockPoolMax: z.coerce.number().int().positive().default(4),
  /** `0`: no embedded host daemon in this server (a replica that only serves the API and remote daemons). */
  embeddedHost: BooleanSettingSchema.default(true),
  /** Where the other replicas reach this one to forward host commands; default: the URL it listens on. */
  replicaUrl: z.url({ protocol: /^https?$/ }).optional(),
  /** How often a replica says it is alive (and re-reads where every host is attached). */
  replicaHeartbeatMs: z.coerce.number().int().positive().default(1_000),
  /** A replica silent this long is dead: its hosts show `host-reconnecting` from its last heartbeat. */
  replicaDeadAfterMs: z.coerce.number().int().positive().default(5_000),
  /** SSE readers of a replica re-check the store this often for rows whose notification was lost. */
  sseCatchUpMs: z.coerce.number().int().positive().default(2_000),
  // Webhook notifications (docs/notifications.md).
  /** The page's address as people open it (behind a proxy: its https URL), for links in notifications; default: the listening URL. */
  publicUrl: z.url({ protocol: /^https?$/ }).optional(),
  /** POST a small signed JSON here when a turn completes or fails, or a question waits for an answer. Unset: none. */
  notifyWebhook: z.url({ protocol: /^https?$/ }).optional(),
  /** Key of the `X-ATS-Signature-256` HMAC (≥ 16 characters; never logged). Unset: POSTs go unsigned, said once at start. */
  notifyWebhookSecret: z.string().min(16).optional(),
  /** A failed POST is retried after this long, then twice as long each time, up to `notifyRetryMaxMs`. */
  notifyRetryInitialMs: z.coerce.number().int().positive().default(1_000),
  notifyRetryMaxMs: z.coerce.number().int().positive().default(60_000),
  /** An event still unsent this long after it was stored is given up (counted in the log's recovery line). */
  notifyGiveUpMs: z.coerce.number().int().positive().default(3_600_000),
  /** A POST without an answer this long failed and is retried (the receiver may have it: dedupe by `X-ATS-Delivery`). */
  notifyTimeoutMs: z.coerce.number().int().positive().default(10_000),
  /** Events waiting to be sent at most; beyond, the oldest is dropped (one log line). */
  notifyQueueMax: z.coerce.number().int().positive().default(1_000),
  /** A question answered this soon after it was asked (a permission mode's policy answers at once) is not notified. */
  notifyApprovalSettleMs: z.coerce.number().int().min(0).default(300),
});
export type Config = z.infer<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;

export class ConfigError extends Error {}

/** Reads flags and `ATS_*` env vars; throws ConfigError naming the bad setting. */
export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv): Config {
  return loadSettings(ConfigSchema, argv, env, {
    envPrefix: 'ATS_',
    fail: (message) => new ConfigError(message),
    repeatable: ['allowRoots'],
  });
}

/** Defaults for tests and embedders: everything of ConfigSchema, overridable. */
export function configWith(overrides: ConfigInput): Config {
  return withAbsoluteDataDir(ConfigSchema.parse(overrides));
}
