import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import WebSocket from 'ws';
import { describeWithPostgres } from '../helpers/store/postgresDatabase';
import { startDaemonProcess, type DaemonProcess } from '../helpers/hosts/daemonProcess';
import { npmStart, type StartedProcess } from '../helpers/server/process';
import { agentStart, assistantStart, textDelta } from '../helpers/server/frames';
import { openSse, type SseClient } from '../helpers/server/sse';
import { rpc } from '../helpers/server/harness';
import { retryUntil } from './retryUntil';
import { apiCall } from '../helpers/server/apiCall';

const TOKEN = 'replicas-token-0123456789abcdef';
const HEARTBEAT_MS = 200;
const DEAD_AFTER_MS = 1_000;
const GRACE_MS = 60_000;
/** Frames streamed before the kill, and frames that must be acked after the failover. */
const BEFORE_KILL = 60;
const AFTER_FAILOVER = 60;
const FRAME_EVERY_MS = 5;

/**
 * Two replicas (`npm start` on one database) and a daemon given both (`--server A,B`). Frames stream into a
 * thread of the daemon's host through B's intake (forwarded to A, where the daemon is attached); A is
 * SIGKILLed mid-stream. The daemon fails over to B; every acked frame is stored once and gapless; B's SSE
 * delivers every row, those appended through A included; A's own host shows `host-reconnecting` on B.
 */
describeWithPostgres('replicas: a replica SIGKILLed mid-stream (processes)', (db) => {
  const cleanups: Array<() => Promise<unknown>> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  it('fails the daemon over, loses no acked frame, streams every row over SSE on the survivor', async function () {
    this.timeout(120_000);
    const dirs = await Promise.all(['a', 'b', 'daemon', 'folder'].map((name) => mkdtemp(path.join(os.tmpdir(), `replicas-${name}-`))));
    cleanups.push(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
    const [dirA, dirB, dirDaemon, folder] = dirs as [string, string, string, string];
    const env = (dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
      ATS_DATABASE_URL: db().url,
      ATS_PORT: '0',
      ATS_DATA_DIR: dataDir,
      ATS_TOKEN: TOKEN,
      ATS_AGENT_PROVIDERS: 'none',
      ATS_REPLICA_HEARTBEAT_MS: String(HEARTBEAT_MS),
      ATS_REPLICA_DEAD_AFTER_MS: String(DEAD_AFTER_MS),
      ATS_HOST_RECONNECT_GRACE_MS: String(GRACE_MS),
      ...extra,
    });
    const [a, b]: StartedProcess[] = await Promise.all([npmStart([], env(dirA)), npmStart([], env(dirB, { ATS_EMBEDDED_HOST: '0' }))]);
    let killedA = false;
    cleanups.push(
      async () => (killedA ? undefined : a.stop()),
      () => b.stop(),
    );
    const api = (base: string, pathname: string, body?: unknown) => apiCall(base, TOKEN, pathname, body);

    const daemon: DaemonProcess = await startDaemonProcess(
      [
        '--server',
        `${a.url},${b.url}`,
        '--token',
        TOKEN,
        '--data-dir',
        dirDaemon,
        '--agent-providers',
        'none',
        '--reconnect-initial-ms',
        '100',
        '--reconnect-max-ms',
        '500',
      ],
      { via: 'node' },
    );
    cleanups.push(() => daemon.kill('SIGTERM'));
    expect(daemon.hostId).to.match(/^host_/);
    await retryUntil(async () => expect(await api(b.url, `/hosts/${daemon.hostId}`)).to.include({ online: true }), 20_000);
    const hostA = (await api(a.url, '/hosts')).find((host: { id: string }) => host.id !== daemon.hostId).id as string;

    const project = await api(b.url, '/projects', { name: 'remote', source: { type: 'local_path', path: folder, hostId: daemon.hostId } });
    const thread = await api(b.url, '/threads', { projectId: project.id, provider: 'pi', model: 'fake/model', title: 'stream' });
    const projectOnA = await api(b.url, '/projects', { name: 'on-a', source: { type: 'local_path', path: folder, hostId: hostA } });
    const threadOnA = await api(b.url, '/threads', { projectId: projectOnA.id, provider: 'pi', model: 'fake/model', title: 'a' });

    const sse: SseClient = await openSse(`${b.url}/api/v1/threads/${thread.id}/events/stream`, { authorization: `Bearer ${TOKEN}` });
    cleanups.push(async () => sse.close());
    const intake = new WebSocket(`${b.url.replace('http', 'ws')}/api/v1/intake`, { headers: { authorization: `Bearer ${TOKEN}` } });
    await new Promise((resolve, reject) => intake.once('open', resolve).once('error', reject));
    cleanups.push(async () => intake.close());
    expect(await rpc(intake, agentStart(thread.id, 1))).to.have.property('result');
    expect(await rpc(intake, assistantStart(thread.id, 2))).to.have.property('result');

    // Stream, kill A after BEFORE_KILL frames, keep streaming until AFTER_FAILOVER frames were acked past it.
    const answers = new Map<number, Promise<any>>();
    let killedAt = 0;
    let ackedAfter = 0;
    const deadline = Date.now() + 60_000;
    for (let i = 0; ackedAfter < AFTER_FAILOVER && Date.now() < deadline; i++) {
      const sent = rpc(intake, textDelta(thread.id, `d${i} `, 1000 + i));
      answers.set(i, sent);
      if (killedAt) void sent.then((answer) => answer.result && ackedAfter++);
      if (i === BEFORE_KILL) {
        process.kill(-a.child.pid!, 'SIGKILL');
        killedA = true;
        killedAt = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, FRAME_EVERY_MS));
    }
    // Frames still in flight when the loop ends may be acked too, so at least, not exactly.
    expect(ackedAfter, 'frames acked after the failover').to.be.at.least(AFTER_FAILOVER);
    const settled = await Promise.all([...answers].map(async ([i, answer]) => [i, await answer] as const));
    const acked = settled
      .filter(([, answer]) => answer.result)
      .map(([i, answer]) => ({ delta: `d${i} `, seqs: answer.result.seqs as number[] }));

    // Every acked frame stored once, gapless, at the seqs its ack named.
    const rows: { seq: number; type: string; data: { delta?: string } }[] = await api(b.url, `/threads/${thread.id}/events?limit=1000`);
    expect(rows.map((row) => row.seq)).to.deep.equal(rows.map((_, i) => i + 1));
    const deltas = rows.filter((row) => row.type === 'item/agentMessage/delta').map((row) => row.data.delta);
    for (const frame of acked) {
      expect(
        deltas.filter((delta) => delta === frame.delta),
        frame.delta,
      ).to.have.length(1);
      // A frame's ack names the seqs of its rows (the first delta also starts the item).
      expect(frame.seqs.map((seq) => rows[seq - 1]!.data.delta).filter((delta) => delta !== undefined)).to.deep.equal([frame.delta]);
    }
    expect(deltas.length).to.equal(new Set(deltas).size);

    // B's SSE saw every row, those A stored before it died included, in seq order.
    const events = await sse.events(rows.length);
    expect(events.slice(0, rows.length).map((event) => Number(event.id))).to.deep.equal(rows.map((row) => row.seq));

    // The daemon is on B now; the thread of A's own host waits for A, with the grace from A's death.
    expect(daemon.stderr()).to.match(new RegExp(`linked to ${b.url.replace('http', 'ws')}`));
    expect((await api(b.url, `/threads/${thread.id}`)).runtime).to.deep.equal({
      displayStatus: 'active',
      hostReconnectGraceExpiresAt: null,
      activity: 'working',
      pendingApprovalIds: [],
    });
    const onA = await retryUntil(async () => {
      const view = await api(b.url, `/threads/${threadOnA.id}`);
      expect(view.runtime.displayStatus).to.equal('host-reconnecting');
      return view;
    }, 10_000);
    const expiresAt = onA.runtime.hostReconnectGraceExpiresAt as number;
    expect(expiresAt).to.be.within(killedAt - DEAD_AFTER_MS - 2_000 + GRACE_MS, killedAt + GRACE_MS + 1_000);
    expect(await api(b.url, `/hosts/${hostA}`)).to.include({ online: false });
  });
});
