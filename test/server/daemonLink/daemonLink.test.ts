import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import WebSocket from 'ws';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../../src/protocol/protocolVersion';
import { agentEnd, agentStart, assistantStart, textDelta } from '../../helpers/server/frames';
import { rpc, TEST_TOKEN } from '../../helpers/server/harness';
import { eventually } from '../../helpers/server/eventually';
import { startHostsServer, type HostsServer } from '../../helpers/hosts/server';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

describe('link: a remote daemon over /api/v1/daemon (both ends in one process)', () => {
  let s: HostsServer;
  let hostId: string;
  let folder: string;

  before(async () => {
    s = await startHostsServer();
    hostId = (await s.daemon()).hostId;
    folder = await tempDir('ats-link-root-');
    await writeFile(path.join(folder, 'remote-only.txt'), 'hello from the remote host\n');
    await eventually(
      async () => ((await s.json('/hosts')).find((h: any) => h.id === hostId && h.online) ? true : undefined),
      'remote host online',
    );
  });
  after(() => s.closeAll());

  const tempDir = suiteTempDirs();

  it('lists the remote host online with its protocol version after its hello', async () => {
    const host = (await s.json('/hosts')).find((h: any) => h.id === hostId);
    expect(host).to.include({ online: true, name: 'remote', protocolVersion: HOST_DAEMON_PROTOCOL_VERSION });
    expect(host.lastSeenAt).to.be.a('string');
  });

  it('routes path and file commands of a project on that host to its daemon', async () => {
    const project = await s.json('/projects', { body: { name: 'remote', source: { type: 'local_path', path: folder, hostId } } });
    const listing = await s.json(`/projects/${project.id}/paths?query=remote`);
    expect(listing.paths.map((entry: any) => entry.path)).to.deep.equal(['remote-only.txt']);
    const file = await s.json('/files/read', { body: { hostId, path: path.join(folder, 'remote-only.txt') } });
    expect(file.content).to.equal('hello from the remote host\n');
  });

  it('stores intake frames of a remote thread through the link: gapless seqs, E1/E2 rows, answered after storing', async () => {
    const project = await s.json('/projects', { body: { name: 'remote-thread', source: { type: 'local_path', path: folder, hostId } } });
    const thread = await s.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'fake/model', title: 'remote' } });
    const socket = await s.intake();
    try {
      expect((await rpc(socket, agentStart(thread.id, 1))).result).to.deep.equal({ seqs: [1] });
      expect((await s.json(`/threads/${thread.id}`)).status).to.equal('active');
      socket.send(JSON.stringify(assistantStart(thread.id)));
      for (let i = 0; i < 50; i++) socket.send(JSON.stringify(textDelta(thread.id, `w${i} `)));
      const ended = await rpc(socket, agentEnd(thread.id, 'done', 2));
      const rows = await s.json(`/threads/${thread.id}/events?limit=1000`);
      expect(rows.map((row: any) => row.seq)).to.deep.equal(rows.map((_: unknown, i: number) => i + 1));
      expect(ended.result.seqs.at(-1)).to.equal(rows.length);
      expect(rows.filter((row: any) => row.type === 'item/agentMessage/delta')).to.have.length(50);
      expect(rows.map((row: any) => row.type)).to.include.members(['turn/started', 'turn/completed']);
      expect((await s.json(`/threads/${thread.id}`)).status).to.equal('idle');
    } finally {
      socket.close();
    }
  });

  it('answers a link message that is not a JSON-RPC request with -32600 and keeps serving the socket', async () => {
    const socket = new WebSocket(`${s.linkBase.replace('http', 'ws')}/api/v1/daemon`, {
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const answers: any[] = [];
    socket.on('message', (data) => answers.push(JSON.parse(data.toString())));
    try {
      socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'store.last_seq', params: { threadId: 'thr_x' } })); // no id
      await eventually(async () => answers[0], 'an answer to the request without id');
      expect(answers[0]).to.deep.include({ id: null });
      expect(answers[0].error.code).to.equal(-32600);
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'store.last_seq', params: { threadId: 'thr_x' } }));
      await eventually(async () => answers[1], 'an answer to the next request');
      expect(answers[1]).to.deep.include({ id: 7 });
      expect(answers[1].error.message).to.contain('link.hello');
    } finally {
      socket.close();
    }
  });

  it('closes a link whose hello fails the contract with 4002 (bad hello)', async () => {
    const socket = new WebSocket(`${s.linkBase.replace('http', 'ws')}/api/v1/daemon`, {
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const closed = new Promise<[number, string]>((resolve) => socket.once('close', (code, reason) => resolve([code, reason.toString()])));
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'link.hello', params: { hostId: 'host_x' } }));
    expect(await closed).to.deep.equal([4002, 'the first request must be a valid link.hello']);
  });

  it('refuses a daemon of another protocol version with a reason naming both versions, and it stops dialling', async () => {
    const other = await s.daemon({ protocolVersion: HOST_DAEMON_PROTOCOL_VERSION + 1 });
    const refusal = await other.refused;
    expect(refusal.message)
      .to.contain(`protocol ${HOST_DAEMON_PROTOCOL_VERSION + 1}`)
      .and.contain(`${HOST_DAEMON_PROTOCOL_VERSION}`);
    expect((await s.json('/hosts')).map((h: any) => h.id)).not.to.include(other.hostId);
    expect(s.logs.some((line) => line.includes(other.hostId) && line.includes('refused'))).to.equal(true);
  });

  it('refuses a wrong token with 401, logs it, and the daemon stops instead of retrying', async () => {
    const intruder = await s.daemon({ token: 'not-the-token-0123456789' });
    const refusal = await intruder.refused;
    expect(refusal.message).to.contain('401');
    expect((await s.json('/hosts')).map((h: any) => h.id)).not.to.include(intruder.hostId);
    expect(s.logs.some((line) => line.includes('daemon link') && line.includes('wrong or missing token'))).to.equal(true);
  });
});
