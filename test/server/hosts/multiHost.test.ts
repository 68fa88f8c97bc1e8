import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type WebSocket from 'ws';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../../src/protocol/protocolVersion';
import { startDaemonProcess, type DaemonProcess } from '../../helpers/hosts/daemonProcess';
import { collectAnswers, deltasOf, openTurn, streamDeltas } from '../../helpers/hosts/intake';
import { startLinkProxy, type LinkProxy } from '../../helpers/hosts/proxy';
import { startHostsServer, type HostsServer } from '../../helpers/hosts/server';
import { gateStore, type StoreGate } from '../../helpers/hosts/storeGate';
import { eventually } from '../../helpers/server/eventually';
import { agentEnd, agentStart } from '../../helpers/server/frames';
import { rpc, TEST_TOKEN } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

const GRACE_MS = 30_000;

describe('hosts: a server and two daemon processes on loopback (npm run daemon)', function () {
  this.timeout(60_000);
  let s: HostsServer;
  let gate: StoreGate;
  let proxy: LinkProxy;
  const daemons: DaemonProcess[] = [];
  const roots: Record<'a' | 'b', string> = { a: '', b: '' };
  const dataDirs: Record<'a' | 'b', string> = { a: '', b: '' };
  const hostIds: Record<'a' | 'b', string> = { a: '', b: '' };
  const projects: Record<'a' | 'b', string> = { a: '', b: '' };

  const runDaemon = async (name: 'a' | 'b', server: string, extra: string[] = [], via: 'npm' | 'node' = 'npm') => {
    const daemon = await startDaemonProcess(
      [
        '--server',
        server,
        '--token',
        TEST_TOKEN,
        '--name',
        `box-${name}`,
        '--data-dir',
        dataDirs[name],
        '--agent-providers',
        'none',
        '--heartbeat-ms',
        '200',
        '--reconnect-initial-ms',
        '50',
        '--reconnect-max-ms',
        '300',
        ...extra,
      ],
      { via },
    );
    daemons.push(daemon);
    return daemon;
  };
  const hostOnline = (hostId: string, want = true) => s.hostOnline(hostId, want, 20_000);
  const threadOn = async (name: 'a' | 'b') =>
    (await s.json('/threads', { body: { projectId: projects[name], provider: 'pi', model: 'fake/model', title: name } })).id as string;

  before(async () => {
    s = await startHostsServer({ graceMs: GRACE_MS, heartbeatMs: 200, wrapStore: (store) => (gate = gateStore(store)).store });
    proxy = await startLinkProxy(s.linkBase);
    for (const name of ['a', 'b'] as const) {
      roots[name] = await tempDir(`ats-host-${name}-root-`);
      dataDirs[name] = await tempDir(`ats-host-${name}-data-`);
      await writeFile(path.join(roots[name], `only-on-${name}.txt`), `file of host ${name}\n`);
    }
    // Host a dials through the proxy so a test can cut its network; host b dials the server directly.
    // Host b is the one killed with SIGKILL: a direct child, so its pid is reaped (and its lock freed) at once.
    // b dials the gated link port (same link code, its appends can be held) to crash inside the ack window.
    const [a, b] = await Promise.all([runDaemon('a', proxy.url), runDaemon('b', s.gatedLinkBase, [], 'node')]);
    hostIds.a = a.hostId;
    hostIds.b = b.hostId;
    await Promise.all([hostOnline(hostIds.a), hostOnline(hostIds.b)]);
    for (const name of ['a', 'b'] as const) {
      projects[name] = (
        await s.json('/projects', { body: { name, source: { type: 'local_path', path: roots[name], hostId: hostIds[name] } } })
      ).id;
    }
  });
  after(async () => {
    await Promise.all(daemons.map((daemon) => daemon.kill('SIGTERM')));
    await proxy.close();
    await s.closeAll();
  });

  const tempDir = suiteTempDirs();

  it('lists both hosts online with their names and last-seen times; paths routes reach the right host', async () => {
    const hosts = await s.json('/hosts');
    for (const name of ['a', 'b'] as const) {
      expect(hosts.find((h: { id: string }) => h.id === hostIds[name])).to.include({ online: true, name: `box-${name}` });
      const listing = await s.json(`/projects/${projects[name]}/paths`);
      expect(listing.paths.map((entry: { path: string }) => entry.path)).to.deep.equal([`only-on-${name}.txt`]);
    }
    const file = await s.json('/files/read', { body: { hostId: hostIds.b, path: path.join(roots.b, 'only-on-b.txt') } });
    expect(file.content).to.equal('file of host b\n');
  });

  it('keeps every acked event exactly once across a SIGKILL mid-ingest: unacked batches re-sent on restart, seqs gapless, one turn (E7)', async () => {
    const threadId = await threadOn('b');
    let socket: WebSocket = await s.intake();
    const answers = collectAnswers(socket);
    openTurn(socket, threadId);
    streamDeltas(socket, threadId, 5);
    await eventually(() => (answers.has(1004) ? true : undefined), 'the first deltas acked');

    const heldDeltas: string[] = [];
    let next = 5;
    // Twice: once the held batch never reaches the store, once it is stored but its ack dies with the daemon.
    for (const fate of ['drop', 'release'] as const) {
      const caught = gate.catchNext();
      streamDeltas(socket, threadId, 30, next);
      next += 30;
      const held = await caught;
      heldDeltas.push(...held.filter((event) => event.type === 'item/agentMessage/delta').map((event) => String(event.data.delta)));
      await daemons
        .filter((d) => d.hostId === hostIds.b)
        .at(-1)!
        .kill('SIGKILL');
      await hostOnline(hostIds.b, false);
      gate[fate]();
      await runDaemon('b', s.gatedLinkBase, [], 'node');
      await hostOnline(hostIds.b);
    }
    socket.close();
    socket = await s.intake();
    const ended = await rpc(socket, agentEnd(threadId, 'done', 1));
    socket.close();

    const rows = await s.json(`/threads/${threadId}/events?limit=1000`);
    const { deltas, gapless } = deltasOf(rows);
    expect(gapless).to.equal(true);
    expect(ended.result?.seqs.at(-1), JSON.stringify(ended.error)).to.equal(rows.length);
    expect(new Set(deltas).size, 'no event stored twice').to.equal(deltas.length);
    const ackedDeltas = [...answers.entries()].filter(([id, answer]) => id >= 1000 && answer.result).map(([id]) => `d${id - 1000} `);
    expect(deltas).to.include.members(ackedDeltas);
    expect(deltas).to.include.members(heldDeltas);
    expect(rows.filter((row: { type: string }) => row.type === 'turn/started')).to.have.length(1);
    // The restarted daemon rebuilt the open turn from the server's rows, so agent_end still closes it, and
    // every turn event carries the one turn id across both restarts (E7).
    expect(rows.filter((row: { type: string }) => row.type === 'turn/completed')).to.have.length(1);
    expect(
      new Set(rows.filter((row: { scope: { kind: string } }) => row.scope.kind === 'turn').map((row: { turnId: string }) => row.turnId))
        .size,
    ).to.equal(1);
  });

  it('shows host-reconnecting with the grace deadline while a link is cut, and active again once it is back', async () => {
    const threadId = await threadOn('a');
    const socket = await s.intake();
    await rpc(socket, agentStart(threadId, 1));
    socket.close();
    expect((await s.json(`/threads/${threadId}`)).runtime).to.deep.equal({
      displayStatus: 'active',
      hostReconnectGraceExpiresAt: null,
      activity: 'working',
      pendingApprovalIds: [],
    });

    const cutAt = Date.now();
    proxy.cut();
    await hostOnline(hostIds.a, false);
    const away = await s.json(`/threads/${threadId}`);
    expect(away.status).to.equal('active');
    expect(away.runtime.displayStatus).to.equal('host-reconnecting');
    expect(away.runtime.hostReconnectGraceExpiresAt).to.be.within(cutAt + GRACE_MS, Date.now() + GRACE_MS);

    proxy.restore();
    await hostOnline(hostIds.a);
    expect((await s.json(`/threads/${threadId}`)).runtime).to.deep.equal({
      displayStatus: 'active',
      hostReconnectGraceExpiresAt: null,
      activity: 'working',
      pendingApprovalIds: [],
    });
  });

  it('refuses a daemon of another protocol version: it exits with a message naming both versions', async () => {
    const other = await runDaemon('a', s.linkBase, [
      '--data-dir',
      await tempDir('ats-host-old-'),
      '--protocol-version',
      String(HOST_DAEMON_PROTOCOL_VERSION + 1),
    ]);
    expect(await other.exited).to.equal(2);
    expect(other.stderr()).to.contain(
      `host daemon protocol ${HOST_DAEMON_PROTOCOL_VERSION + 1} is not the server's ${HOST_DAEMON_PROTOCOL_VERSION}`,
    );
    expect((await s.json('/hosts')).map((h: { id: string }) => h.id)).not.to.include(other.hostId);
  });

  it('refuses a wrong token: the daemon exits with the 401, the server logs it and lists no new host', async () => {
    const before = (await s.json('/hosts')).length;
    const intruder = await runDaemon('a', s.linkBase, [
      '--data-dir',
      await tempDir('ats-host-bad-'),
      '--token',
      'wrong-token-0123456789abcdef',
    ]);
    expect(await intruder.exited).to.equal(2);
    expect(intruder.stderr()).to.contain('refused the token (HTTP 401)');
    expect(s.logs.some((line) => line.includes('wrong or missing token'))).to.equal(true);
    expect(await s.json('/hosts')).to.have.length(before);
  });
});
