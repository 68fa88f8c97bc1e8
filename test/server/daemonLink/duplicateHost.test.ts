import { expect } from 'chai';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import WebSocket from 'ws';
import { LINK_CLOSE } from '../../../src/protocol/daemonLink';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../../src/protocol/protocolVersion';
import { startDaemonProcess } from '../../helpers/hosts/daemonProcess';
import { eventually } from '../../helpers/server/eventually';
import { TEST_TOKEN } from '../../helpers/server/harness';
import { startHostsServer, type HostsServer } from '../../helpers/hosts/server';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { linkFrames } from '../../helpers/hosts/linkFrames';

interface RawLink {
  socket: WebSocket;
  /** The answer to its hello: `result` when linked. */
  answer: Promise<{ result?: unknown; error?: { message: string } }>;
  closed: Promise<{ code: number; reason: string }>;
}

/** A bare link that says hello as `hostId`; `autoPong: false` makes it a peer that vanished without a close. */
async function rawLink(s: HostsServer, hostId: string, options: { autoPong?: boolean } = {}): Promise<RawLink> {
  const socket = new WebSocket(`${s.linkBase.replace('http', 'ws')}/api/v1/daemon`, {
    headers: { authorization: `Bearer ${TEST_TOKEN}` },
    autoPong: options.autoPong ?? true,
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  // The hello's answer: the link may batch it with the server's own first request (a prune of the host's worktrees).
  const answer = new Promise<any>((resolve) =>
    socket.on('message', (data) => {
      const frames = linkFrames(data);
      const hello = frames.find((frame) => frame.id === 1 && !('method' in frame));
      if (hello) resolve(hello);
    }),
  );

  socket.send(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'link.hello',
      params: { protocolVersion: HOST_DAEMON_PROTOCOL_VERSION, hostId, name: 'raw', platform: 'linux', providers: [] },
    }),
  );
  return { socket, answer, closed };
}

const hostOf = async (s: HostsServer, hostId: string) => (await s.json('/hosts')).find((h: { id: string }) => h.id === hostId);

describe('link: a hello reusing the id of a host that is online is refused (issue 12.3)', () => {
  let s: HostsServer;

  before(async () => {
    s = await startHostsServer();
  });
  after(() => s.closeAll());

  const tempDir = suiteTempDirs();

  it('a daemon with a copied data dir is refused with 4005 while the first is online; the first keeps its id and name', async () => {
    const first = await s.daemon();
    await eventually(async () => ((await hostOf(s, first.hostId))?.online ? true : undefined), 'first daemon online');
    const copyDir = await tempDir('ats-copied-daemon-');
    await copyFile(path.join(first.dataDir, 'host.json'), path.join(copyDir, 'host.json'));
    const refusalsBefore = s.logs.filter((line) => line.includes('refused: host')).length;

    // A fast backoff would redial at once; the refused daemon must wait the longest backoff instead.
    const copy = await s.daemon({ dataDir: copyDir, name: 'copy', reconnectInitialMs: 10, reconnectMaxMs: 60_000 });
    expect(copy.hostId).to.equal(first.hostId);
    const advice = await eventually(
      () => s.logs.find((line) => line.startsWith('the server refused this daemon')),
      'the copy to be refused',
    );
    expect(advice).to.contain('already connected; a copied daemon data dir needs a new identity');
    expect(advice).to.contain(`delete ${path.join(copyDir, 'host.json')}`);
    expect(advice).to.contain('Retrying in 60 s');
    const refusals = s.logs.filter((line) => line.includes('refused: host'));
    expect(refusals.length - refusalsBefore).to.equal(1);
    expect(refusals.at(-1)).to.contain(`(${first.hostId}, copy) refused: host ${first.hostId} is already online`);

    expect(await hostOf(s, first.hostId)).to.include({ online: true, name: 'remote' });
    expect(first.link.isConnected()).to.equal(true);
    expect(copy.link.isConnected()).to.equal(false);
    await copy.close();
    await first.close();
  });

  it('npm run daemon with a copied data dir prints what to do and keeps running, without a fast loop', async function () {
    this.timeout(90_000);
    const first = await s.daemon();
    await eventually(async () => ((await hostOf(s, first.hostId))?.online ? true : undefined), 'first daemon online');
    const copyDir = await tempDir('ats-copied-cli-');
    await copyFile(path.join(first.dataDir, 'host.json'), path.join(copyDir, 'host.json'));
    const args = [
      '--server',
      s.linkBase,
      '--token',
      TEST_TOKEN,
      '--name',
      'copy',
      '--data-dir',
      copyDir,
      '--reconnect-initial-ms',
      '10',
      '--reconnect-max-ms',
      '60000',
    ];
    const copy = await startDaemonProcess(args, { via: 'node' });
    try {
      expect(copy.hostId).to.equal(first.hostId);
      await eventually(() => (copy.stderr().includes('Retrying in 60 s') ? true : undefined), 'the advice on stderr', 60_000);
      expect(copy.stderr()).to.contain(`delete ${path.join(copyDir, 'host.json')} and start it again to get a new host id`);
      expect(copy.child.exitCode).to.equal(null);
      expect(s.logs.filter((line) => line.includes(`(${first.hostId}, copy) refused`))).to.have.length(1);
      expect(await hostOf(s, first.hostId)).to.include({ online: true, name: 'remote' });
    } finally {
      await copy.kill('SIGKILL');
      await first.close();
    }
  });

  it('the refused daemon gets in on its slow retry once the first has gone', async () => {
    const first = await s.daemon();
    await eventually(async () => ((await hostOf(s, first.hostId))?.online ? true : undefined), 'first daemon online');
    const copyDir = await tempDir('ats-copied-daemon-');
    await copyFile(path.join(first.dataDir, 'host.json'), path.join(copyDir, 'host.json'));
    const copy = await s.daemon({ dataDir: copyDir, name: 'copy', reconnectInitialMs: 10, reconnectMaxMs: 300 });
    await eventually(() => s.logs.find((line) => line.includes(`(${first.hostId}, copy) refused`)), 'the copy to be refused');
    await first.close();
    await eventually(() => (copy.link.isConnected() ? true : undefined), 'the copy to link');
    expect(await hostOf(s, first.hostId)).to.include({ online: true, name: 'copy' });
    await copy.close();
  });

  it("never accepts the embedded host's id from outside: 4005, and the embedded host stays online and named", async () => {
    const embeddedBefore = await hostOf(s, s.server.hostId);
    const intruder = await rawLink(s, s.server.hostId);
    expect(await intruder.closed).to.deep.equal({
      code: LINK_CLOSE.duplicateHost,
      reason: 'this host id is already connected; a copied daemon data dir needs a new identity',
    });
    expect(await hostOf(s, s.server.hostId)).to.include({ online: true, name: embeddedBefore.name });
    expect(s.logs.some((line) => line.includes(`refused: host ${s.server.hostId} is already online: it is the embedded host`))).to.equal(
      true,
    );
  });

  it('a linked peer that no longer answers pings gives way to a new link of the same id (a redial after a network drop)', async () => {
    const hostId = 'host_stale_then_back';
    const stale = await rawLink(s, hostId, { autoPong: false });
    expect((await stale.answer).result).to.be.an('object');
    const back = await rawLink(s, hostId);
    expect((await back.answer).result).to.be.an('object');
    // Released by the server (1001), or dropped (1006) when it does not answer the close either.
    expect((await stale.closed).code).to.be.oneOf([1001, 1006]);
    expect(await hostOf(s, hostId)).to.include({ online: true });
    back.socket.close();
  });

  it('a linked peer that answers pings keeps its id against a second raw link', async () => {
    const hostId = 'host_alive';
    const alive = await rawLink(s, hostId);
    expect((await alive.answer).result).to.be.an('object');
    const second = await rawLink(s, hostId);
    expect((await second.closed).code).to.equal(LINK_CLOSE.duplicateHost);
    expect(alive.socket.readyState).to.equal(WebSocket.OPEN);
    alive.socket.close();
  });
});
