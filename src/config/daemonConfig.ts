import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { AGENT_ISOLATIONS, DEFAULT_AGENT_START_TIMEOUT_MS } from '../daemon/providerFactories';
import { AgentProvidersSettingSchema } from './agentProvidersSetting';
import { AllowFullAccessSchema, BooleanSettingSchema } from './booleanSetting';
import { loadSettings } from './loadSettings';
import { PathListSettingSchema } from './pathListSetting';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../protocol/protocolVersion';

/**
 * Settings of `npm run daemon`, a host daemon on another machine. Each can be a flag (`--heartbeat-ms 5000`)
 * or an `ATS_DAEMON_*` env var (`ATS_DAEMON_HEARTBEAT_MS=5000`); flags win. The prefix differs from the
 * server's `ATS_*` so a server and a daemon on one machine do not read each other's settings.
 */
export const DaemonConfigSchema = z.strictObject({
  /**
   * The server's base URL, e.g. `http://10.0.0.5:8787`; the daemon dials `ws://…/api/v1/daemon`. Several
   * replicas of one database: a comma list (`http://a:8787,http://b:8787`); the daemon attaches to the first
   * it reaches and fails over to the next when its link drops (docs/replicas.md).
   */
  server: z
    .string()
    .min(1)
    .refine(
      (list) => list.split(',').every((url) => z.url({ protocol: /^(https?|wss?)$/ }).safeParse(url.trim()).success),
      'a URL, or a comma list of URLs (http, https, ws, wss)',
    ),
  /**
   * A PEM file of the CA that signed the server's certificate (or that certificate itself, when self-signed),
   * trusted instead of the system's CAs for an `https://` server (docs/hosts.md#tls).
   */
  ca: z.string().min(1).optional(),
  /**
   * A one-time code from the server (its page's host list, or `POST /api/v1/hosts/enrollments`): traded once for
   * this host's own credential, kept in `<dataDir>/credential` (0600) and used from then on (docs/hosts.md).
   */
  enroll: z.string().min(1).optional(),
  /** Deprecated (one more release): the server's bearer token, which can drive the whole API. Use `enroll`. */
  token: z.string().min(16).optional(),
  /** Shown in `GET /hosts`; defaults to this machine's hostname. */
  name: z.string().min(1).default(os.hostname()),
  /** Host identity (the stable `host_…` id), agent sessions and the outbox of unacked batches. */
  dataDir: z.string().min(1).default(path.join(os.homedir(), '.agent-thread-daemon')),
  /** Agent providers this host runs, comma-separated, or `none` for intake-only threads. */
  agentProviders: AgentProvidersSettingSchema,
  /** `process`: each thread's agent in a process of its own (a crash ends only its run); `none`: inside the daemon. */
  agentIsolation: z.enum(AGENT_ISOLATIONS).default('process'),
  /** `1`: threads on this host may use the `full-access` permission mode (`ATS_DAEMON_ALLOW_FULL_ACCESS`). */
  allowFullAccess: AllowFullAccessSchema,
  /**
   * The only folders this host exposes (projects, environments, file reads, listings, agents' folders);
   * repeat the flag for several (`--allow-root ~/work --allow-root /srv/repos`), or `:`-separate them in
   * `ATS_DAEMON_ALLOW_ROOT`. Unset: every folder the daemon's user can read.
   */
  allowRoot: PathListSettingSchema.optional(),
  /**
   * Ping interval on the link; a link with no pong for one interval is dropped at the next tick and redialled.
   * Unset: the interval the server's hello answer names (its `wsHeartbeatMs`), so one setting serves both ends.
   */
  heartbeatMs: z.coerce.number().int().positive().optional(),
  /** First wait before redialling after a drop; doubles per failure (with jitter) up to `reconnectMaxMs`. */
  reconnectInitialMs: z.coerce.number().int().positive().default(250),
  reconnectMaxMs: z.coerce.number().int().positive().default(10_000),
  /** Largest frame the daemon accepts from the server. */
  maxPayloadBytes: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
  /** How long a stop or a failed settle waits for the run's `agent_end` before the turn closes without it. */
  turnGraceMs: z.coerce.number().int().positive().default(5_000),
  /** How long an agent with no open turn and no pending question stays up (`--agent-idle-ms`, `ATS_DAEMON_AGENT_IDLE_MS`). */
  agentIdleMs: z.coerce.number().int().positive().default(600_000),
  /** How long an agent's start may take before it is a failed start (`--agent-start-timeout-ms`, `ATS_DAEMON_AGENT_START_TIMEOUT_MS`). */
  agentStartTimeoutMs: z.coerce.number().int().positive().default(DEFAULT_AGENT_START_TIMEOUT_MS),
  /** `1`: log how each path listing was answered (from its watched listing, or by revalidating stamps) and why a watch stopped. */
  debug: BooleanSettingSchema.default(false),
  /** How long a root nobody searches keeps its file watch (quick-open's live listing); `0`: never watch, revalidate by stamps. */
  pathWatchIdleMs: z.coerce.number().int().min(0).default(300_000),
  /** Wait before re-sending a store request the server failed (e.g. while it restarts). */
  storeRetryMs: z.coerce.number().int().positive().default(1000),
  /**
   * The protocol version announced in the hello. Only for trying a server's refusal of other versions;
   * leave it alone otherwise.
   */
  protocolVersion: z.coerce.number().int().default(HOST_DAEMON_PROTOCOL_VERSION),
});
export type DaemonConfig = z.infer<typeof DaemonConfigSchema>;

export class DaemonConfigError extends Error {}

/** Reads flags and `ATS_DAEMON_*` env vars; throws DaemonConfigError naming the bad or missing setting. */
export function loadDaemonConfig(argv: readonly string[], env: NodeJS.ProcessEnv): DaemonConfig {
  return loadSettings(DaemonConfigSchema, argv, env, {
    envPrefix: 'ATS_DAEMON_',
    fail: (message) => new DaemonConfigError(message),
    repeatable: ['allowRoot'],
  });
}
