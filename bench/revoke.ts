/**
 * `npm run bench:revoke` (issue 30): how long after `DELETE /hosts/:id` is sent the removed host's daemon
 * sees its link closed (4006). Each round enrolls a fresh daemon (in this process, the CLI's own code: an
 * enrollment code traded for a credential, then the link), removes it, and times the moment its link
 * reports the refusal. One server on the embedded store; then two replicas on a fresh PostgreSQL database,
 * the daemon on B and the DELETE sent to A (the NOTIFY path). Goals: ≤ 1 s on one server, ≤ 2 replica
 * heartbeats across replicas.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { configWith, type ConfigInput } from '../src/config/serverConfig';
import { startRemoteDaemon } from '../src/daemon/remote/startRemoteDaemon';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../src/protocol/protocolVersion';
import { startServer, type RunningServer } from '../src/server/startServer';
import { withScratchDatabase } from './lib/scratchDatabase';

const TOKEN = 'bench-token-0123456789abcdef';
const ROUNDS = 20;
const REPLICA_HEARTBEAT_MS = 1_000;

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

async function call(server: RunningServer, method: string, pathname: string): Promise<any> {
  const response = await fetch(`${server.url}/api/v1${pathname}`, { method, headers: { authorization: `Bearer ${TOKEN}` } });
  if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? undefined : response.json();
}

/** One round: enroll a daemon at `attachTo`, remove it through `removeAt`, the ms until its link said so. */
async function round(attachTo: RunningServer, removeAt: RunningServer): Promise<number> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ats-bench-revoke-'));
  try {
    const { code } = await call(removeAt, 'POST', '/hosts/enrollments');
    const daemon = await startRemoteDaemon({
      config: {
        server: attachTo.url,
        enroll: code,
        name: 'bench',
        dataDir,
        reconnectInitialMs: 50,
        reconnectMaxMs: 200,
        maxPayloadBytes: 64 * 1024 * 1024,
        storeRetryMs: 50,
        protocolVersion: HOST_DAEMON_PROTOCOL_VERSION,
      },
      log: () => {},
    });
    while (!daemon.link.isConnected()) await new Promise((resolve) => setTimeout(resolve, 5));
    const refused = daemon.refused.then(() => performance.now());
    const sent = performance.now();
    await call(removeAt, 'DELETE', `/hosts/${daemon.hostId}`);
    const closedAt = await refused;
    await daemon.close();
    return closedAt - sent;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function server(dataDir: string, overrides: ConfigInput): Promise<RunningServer> {
  return startServer({ config: configWith({ port: 0, token: TOKEN, dataDir, agentProviders: 'none', ...overrides }), log: () => {} });
}

function report(what: string, times: number[], goalMs: number): void {
  const [p50, p95, max] = [quantile(times, 0.5), quantile(times, 0.95), Math.max(...times)];
  const verdict = max <= goalMs ? 'meets' : 'MISSES';
  console.log(
    `${what}: DELETE sent → link closed (4006) over ${times.length} rounds: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${max.toFixed(1)} ms (${verdict} the goal ≤ ${goalMs} ms)`,
  );
}

async function main(): Promise<void> {
  const dirs: string[] = [];
  const dir = async () => {
    const made = await mkdtemp(path.join(os.tmpdir(), 'ats-bench-revoke-server-'));
    dirs.push(made);
    return made;
  };
  try {
    const single = await server(await dir(), {});
    const alone: number[] = [];
    for (let i = 0; i < ROUNDS; i++) alone.push(await round(single, single));
    await single.close();
    report('one server (embedded store)', alone, 1_000);

    await withScratchDatabase(async (databaseUrl) => {
      const replica = { databaseUrl, replicaHeartbeatMs: REPLICA_HEARTBEAT_MS };
      const a = await server(await dir(), replica);
      const b = await server(await dir(), { ...replica, embeddedHost: '0' });
      try {
        const across: number[] = [];
        for (let i = 0; i < ROUNDS; i++) across.push(await round(b, a));
        report(`two replicas (daemon on B, DELETE on A, heartbeat ${REPLICA_HEARTBEAT_MS} ms)`, across, 2 * REPLICA_HEARTBEAT_MS);
      } finally {
        await b.close();
        await a.close();
      }
    });
  } finally {
    await Promise.all(dirs.map((made) => rm(made, { recursive: true, force: true })));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
