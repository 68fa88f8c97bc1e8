import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type WebSocket from 'ws';
import { LINK_METHOD, THREAD_NOT_OWNED } from '../../../src/protocol/daemonLink';
import { agentEnd, agentStart } from '../../helpers/server/frames';
import { projectWithThread, rpc, startTestServer, TEST_TOKEN, type TestServer } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { daemonRunner, enrollmentCode, hostListed } from '../hostAccess/daemons';
import { helloAs } from '../hostAccess/rawLink';
import { linkFrames } from '../../helpers/hosts/linkFrames';

/** A row as a daemon's pipeline makes one: what an intruder would slip into another host's thread. */
const row = (threadId: string, turnId = 'forged') => ({
  threadId,
  type: 'turn/started' as const,
  turnId,
  scope: { kind: 'turn' as const, turnId },
  data: { providerThreadId: threadId, origin: 'client' as const },
});

let nextId = 100;
const call = (socket: WebSocket, method: string, params: unknown) => rpc(socket, { jsonrpc: '2.0', id: nextId++, method, params });
const append = (socket: WebSocket, events: ReturnType<typeof row>[], firstSeqs: Record<string, number>) =>
  call(socket, LINK_METHOD.append, { batchId: `b${nextId}`, events, firstSeqs });

/** A raw link as `hostId` that answers the server's host commands the way a daemon with no agents would. */
async function rawLink(serverUrl: string, bearer: string, hostId: string): Promise<WebSocket> {
  const outcome = await helloAs(serverUrl, bearer, hostId);
  if (!('attached' in outcome)) throw new Error(`not attached: ${JSON.stringify(outcome)}`);
  const { socket } = outcome;
  socket.on('message', (data) => {
    for (const message of linkFrames(data)) {
      if (typeof message.method !== 'string' || message.id === undefined) continue;
      const result = answerOf(message);
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    }
  });
  return socket;
}

function answerOf(request: { method: string; params: { threadId?: string } }): unknown {
  if (request.method === 'thread.open') return { providerThreadId: request.params.threadId, agent: false };
  if (request.method === 'git.prune_worktrees') return { removed: [] };
  return { seqs: [] };
}

function expectRefused(answer: any, threadIds: string[]) {
  expect(answer.result, JSON.stringify(answer)).to.equal(undefined);
  expect(answer.error.code).to.equal(THREAD_NOT_OWNED);
  expect(answer.error.data).to.deep.equal({ threadIds });
}

describe('link: a host reads and writes its own threads over /api/v1/daemon, and nothing else (issue 37)', function () {
  this.timeout(180_000);
  let t: TestServer;
  const daemons = daemonRunner(() => t.server.url);
  /** Host A's thread, its daemon a live process; the embedded host's thread; host B's credential on a raw link. */
  let ownersThread: string;
  let embeddedThread: string;
  let hostB: string;
  let intruder: WebSocket;
  let ownersRowCount: number;

  const rowsOf = async (threadId: string) => (await t.json(`/threads/${threadId}/events?limit=1000`)) as { seq: number; type: string }[];
  const intake = async (frames: unknown[]) => {
    const socket = await t.intake();
    for (const frame of frames) expect((await rpc(socket, frame)).error).to.equal(undefined);
    socket.close();
  };
  const threadOfB = async (id: string) => {
    const thread = (await t.server.registry.threads.get(ownersThread))!;
    await t.server.registry.threads.insert({ ...thread, id, hostId: hostB, providerThreadId: id });
    return id;
  };

  before(async () => {
    t = await startTestServer({ config: { agentProviders: 'none' } });
    const folder = await tempDir('ats-scope-root-');
    const ownerDir = await tempDir('ats-scope-a-');
    const owner = await daemons.run(['--enroll', (await enrollmentCode(t)).code, '--data-dir', ownerDir]);
    await hostListed(t, owner.hostId, true);
    const project = await t.json('/projects', { body: { name: 'a', source: { type: 'local_path', path: folder, hostId: owner.hostId } } });
    ownersThread = (await t.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'fake/model', title: 'a' } })).id;
    await intake([agentStart(ownersThread, 1), agentEnd(ownersThread, 'done', 2)]);
    ownersRowCount = (await rowsOf(ownersThread)).length;
    expect(ownersRowCount).to.be.greaterThan(1);
    // The host read the new thread while it opened it, before the server stored its record: the server's own
    // command vouched for it, so nothing was refused (a refusal is logged by the daemon).
    expect(owner.stderr()).to.not.match(/not a thread of|refused rows/);
    embeddedThread = (await projectWithThread(t, folder)).thread.id;
    await intake([agentStart(embeddedThread, 3), agentEnd(embeddedThread, 'done', 4)]);

    // B enrolls as a real daemon would, then its credential is used by hand, as an attacker holding it would.
    const intruderDir = await tempDir('ats-scope-b-');
    const b = await daemons.run(['--enroll', (await enrollmentCode(t)).code, '--data-dir', intruderDir]);
    hostB = b.hostId;
    await hostListed(t, hostB, true);
    await b.kill('SIGTERM');
    await hostListed(t, hostB, false);
    const credential = (await readFile(path.join(intruderDir, 'credential'), 'utf8')).trim();
    intruder = await rawLink(t.server.url, credential, hostB);
  });
  after(async () => {
    intruder?.close();
    await daemons.stopAll();
    await t?.close();
  });
  const tempDir = suiteTempDirs();

  it('store.list of another host’s thread, or of the embedded host’s, is refused: no row read', async () => {
    for (const threadId of [ownersThread, embeddedThread]) expectRefused(await call(intruder, LINK_METHOD.list, { threadId }), [threadId]);
  });

  it('store.last_seq of another host’s thread, or of the embedded host’s, is refused', async () => {
    for (const threadId of [ownersThread, embeddedThread])
      expectRefused(await call(intruder, LINK_METHOD.lastSeq, { threadId }), [threadId]);
  });

  it('store.append to another host’s thread is refused: nothing stored, and the owner’s next frame goes on at its own next seq', async () => {
    expectRefused(await append(intruder, [row(ownersThread)], { [ownersThread]: ownersRowCount + 1 }), [ownersThread]);
    expectRefused(await append(intruder, [row(embeddedThread)], { [embeddedThread]: 1 }), [embeddedThread]);
    expect((await rowsOf(ownersThread)).length).to.equal(ownersRowCount);
    await intake([agentStart(ownersThread, 5)]);
    const rows = await rowsOf(ownersThread);
    expect(rows.map((stored) => stored.seq)).to.deep.equal(rows.map((_, i) => i + 1));
    expect(rows.length).to.be.greaterThan(ownersRowCount);
    expect(rows.some((stored) => stored.type === 'turn/started' && (stored as { turnId?: string }).turnId === 'forged')).to.equal(false);
    await intake([agentEnd(ownersThread, 'done', 6)]);
  });

  it('a thread id that does not exist is refused by every store method: no orphan row stored', async () => {
    const unknown = 'thr_neverexisted';
    expectRefused(await append(intruder, [row(unknown)], { [unknown]: 1 }), [unknown]);
    expectRefused(await call(intruder, LINK_METHOD.list, { threadId: unknown }), [unknown]);
    expectRefused(await call(intruder, LINK_METHOD.lastSeq, { threadId: unknown }), [unknown]);
    expect(await t.server.store.lastSeq(unknown)).to.equal(0);
  });

  it('a batch that mixes its own thread with another’s is refused whole, naming only the other; its own alone is stored', async () => {
    const own = await threadOfB('thr_scopeownb');
    const mixed = await append(intruder, [row(own), row(ownersThread)], { [own]: 1, [ownersThread]: ownersRowCount + 1 });
    expectRefused(mixed, [ownersThread]);
    expect(await t.server.store.lastSeq(own)).to.equal(0);
    // A `firstSeqs` key without an event of its own is checked too.
    expectRefused(await append(intruder, [row(own)], { [own]: 1, [embeddedThread]: 1 }), [embeddedThread]);
    const stored = await append(intruder, [row(own)], { [own]: 1 });
    expect(stored.result.stored.map((ref: { seq: number }) => ref.seq)).to.deep.equal([1]);
    expect((await call(intruder, LINK_METHOD.list, { threadId: own })).result.rows).to.have.length(1);
  });

  it('a thread deleted while its host is linked is refused from the delete on, though the link had used it', async () => {
    const own = await threadOfB('thr_scopedeleted');
    expect((await append(intruder, [row(own)], { [own]: 1 })).result.stored).to.have.length(1);
    expect((await t.api(`/threads/${own}`, { method: 'DELETE' })).status).to.equal(204);
    expectRefused(await append(intruder, [row(own, 'late')], { [own]: 1 }), [own]);
    expectRefused(await call(intruder, LINK_METHOD.list, { threadId: own }), [own]);
    expect(await t.server.store.lastSeq(own)).to.equal(0);
  });

  it('a link the deprecated server token let in is scoped to the host id of its hello all the same', async () => {
    const tokenLinked = await rawLink(t.server.url, TEST_TOKEN, 'host_tokenscoped');
    try {
      expectRefused(await call(tokenLinked, LINK_METHOD.list, { threadId: ownersThread }), [ownersThread]);
      expectRefused(await append(tokenLinked, [row(ownersThread)], { [ownersThread]: ownersRowCount + 1 }), [ownersThread]);
    } finally {
      tokenLinked.close();
    }
  });
});
