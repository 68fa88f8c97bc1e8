import { expect } from 'chai';
import { eventually } from '../helpers/server/eventually';
import { agentStart, assistantStart, textDelta } from '../helpers/server/frames';
import { rpc } from '../helpers/server/harness';
import { startHostsServer, type HostsServer } from '../helpers/hosts/server';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

const LIMIT = 64 * 1024;

describe("link: batches kept within the server's frame limit", () => {
  let s: HostsServer;
  let threadId: string;

  before(async () => {
    s = await startHostsServer({ maxPayloadBytes: LIMIT });
    const { hostId } = await s.daemon();
    await eventually(
      async () => ((await s.json('/hosts')).find((h: { id: string; online: boolean }) => h.id === hostId && h.online) ? true : undefined),
      'online',
    );
    const folder = await tempDir('ats-frame-limit-');
    const project = await s.json('/projects', { body: { name: 'p', source: { type: 'local_path', path: folder, hostId } } });
    threadId = (await s.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'fake/model', title: 't' } })).id;
  });
  after(() => s.closeAll());

  const tempDir = suiteTempDirs();

  it('splits a group commit bigger than the limit into batches that fit: all stored, in order, gapless', async () => {
    const socket = await s.intake();
    socket.send(JSON.stringify(agentStart(threadId)));
    socket.send(JSON.stringify(assistantStart(threadId)));
    const big = (i: number) => `${i}:${'x'.repeat(20 * 1024)}`;
    for (let i = 0; i < 9; i++) socket.send(JSON.stringify(textDelta(threadId, big(i))));
    const last = await rpc(socket, textDelta(threadId, big(9), 1));
    socket.close();
    expect(last.result.seqs).to.have.length(1);
    const rows = await s.json(`/threads/${threadId}/events?limit=1000`);
    expect(rows.map((row: { seq: number }) => row.seq)).to.deep.equal(rows.map((_: unknown, i: number) => i + 1));
    const deltas = rows
      .filter((row: { type: string }) => row.type === 'item/agentMessage/delta')
      .map((row: { data: { delta: string } }) => row.data.delta);
    expect(deltas).to.deep.equal(Array.from({ length: 10 }, (_, i) => big(i)));
  });

  it('refuses a single event that cannot fit, answers its sender with an error, and keeps the link and seqs intact', async () => {
    const socket = await s.intake();
    const before = (await s.json(`/threads/${threadId}/events?limit=1000`)).length;
    const tooBig = await rpc(socket, textDelta(threadId, 'y'.repeat(LIMIT), 2));
    expect(tooBig.error).to.be.an('object');
    const next = await rpc(socket, textDelta(threadId, 'small', 3));
    socket.close();
    expect(next.result.seqs).to.deep.equal([before + 1]);
  });
});
