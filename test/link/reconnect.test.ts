import { expect } from 'chai';
import type WebSocket from 'ws';
import { eventually } from '../helpers/server/eventually';
import { collectAnswers, deltasOf, openTurn, streamDeltas } from '../helpers/hosts/intake';
import { startLinkProxy, type LinkProxy } from '../helpers/hosts/proxy';
import { startHostsServer, type HostsServer } from '../helpers/hosts/server';
import { gateStore, type StoreGate } from '../helpers/hosts/storeGate';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

describe('link: drops, re-sends and heartbeats (real sockets through a TCP proxy)', () => {
  let s: HostsServer;
  let gate: StoreGate;
  let proxy: LinkProxy;
  let hostId: string;
  let folder: string;
  let socket: WebSocket;

  const online = (want: boolean) => s.hostOnline(hostId, want);

  const newThread = async () => {
    const project = await s.json('/projects', { body: { name: 'p', source: { type: 'local_path', path: folder, hostId } } });
    return (await s.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'fake/model', title: 't' } })).id as string;
  };

  before(async () => {
    s = await startHostsServer({ heartbeatMs: 100, wrapStore: (store) => (gate = gateStore(store)).store });
    proxy = await startLinkProxy(s.gatedLinkBase);
    hostId = (await s.daemon({ server: proxy.url, heartbeatMs: 100 })).hostId;
    folder = await tempDir('ats-reconnect-');
    await online(true);
  });
  beforeEach(async () => (socket = await s.intake()));
  afterEach(() => socket.close());
  after(async () => {
    await s.closeAll();
    await proxy.close();
  });

  for (const fate of ['release', 'drop'] as const) {
    const what = fate === 'release' ? 'stored but its ack lost in the cut' : 'never stored before the cut';
    it(`re-sends an unacked batch (${what}) on the next link: every event stored exactly once, seqs gapless`, async () => {
      const threadId = await newThread();
      const answers = collectAnswers(socket);
      openTurn(socket, threadId);
      streamDeltas(socket, threadId, 5);
      await eventually(() => (answers.has(1004) ? true : undefined), 'the first deltas stored');
      const caught = gate.catchNext();
      streamDeltas(socket, threadId, 40, 5);
      const held = await caught;
      expect(held.map((event) => event.type)).to.include('item/agentMessage/delta');
      proxy.cut();
      await online(false);
      gate[fate]();
      proxy.restore();
      await online(true);

      const heldDeltas = held
        .filter((event) => event.type === 'item/agentMessage/delta')
        .map((event) => (event.data as { delta?: string }).delta);
      const { deltas, gapless, rows } = await eventually(async () => {
        const rows = await s.json(`/threads/${threadId}/events?limit=1000`);
        const stored = deltasOf(rows);
        return stored.deltas.includes(heldDeltas.at(-1)!) ? { ...stored, rows } : undefined;
      }, 'the held batch and what queued behind it');
      expect(gapless).to.equal(true);
      expect(rows.filter((row: { type: string }) => row.type === 'turn/started')).to.have.length(1);
      expect(new Set(deltas).size).to.equal(deltas.length);
      // Stored in the order sent: a prefix of what was sent (frames sent into the outage never reached it).
      expect(deltas).to.deep.equal(Array.from({ length: deltas.length }, (_, i) => `d${i} `));
      expect(deltas).to.include.members(heldDeltas as string[]);
      const acked = [...answers.values()].filter((answer) => answer.result).length;
      expect(deltas.length).to.be.at.least(acked);
    });
  }

  const tempDir = suiteTempDirs();

  it('notices a frozen link through heartbeats (both sides), marks the host offline and relinks when it thaws', async () => {
    proxy.freeze();
    await online(false);
    proxy.restore();
    await online(true);
    expect(s.logs.some((line) => line.includes(`host ${hostId}`) && line.includes('connected'))).to.equal(true);
  });
});
