import { expect } from 'chai';
import type WebSocket from 'ws';
import { createHostDispatcher, type HostHandlers } from '../../src/daemon/hostDispatcher';
import { connectInProcess } from '../../src/server/hosts/inProcessLink';
import { HostRequestError } from '../../src/protocol/hostErrors';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../src/protocol/protocolVersion';
import { INTAKE_MAX_DEPTH } from '../../src/server/intake/frameDepth';
import { eventually } from '../helpers/server/eventually';
import { agentStart } from '../helpers/server/frames';
import { rpc } from '../helpers/server/harness';
import { startHostsServer, type HostsServer } from '../helpers/hosts/server';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

/** An sdk/message request whose message holds `depth` nested arrays: `[[[…]]]`. */
function nestedFrame(threadId: string, id: number, depth: number): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"sdk/message","params":{"threadId":"${threadId}","message":{"type":"agent_start","deep":${'['.repeat(depth)}${']'.repeat(depth)}}}}`;
}

/** Sends raw frame text and resolves with the answer carrying `id`. */
function answerTo(socket: WebSocket, text: string, id: number): Promise<any> {
  return new Promise((resolve) => {
    const listen = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString());
      if (message.id !== id) return;
      socket.off('message', listen);
      resolve(message);
    };
    socket.on('message', listen);
    socket.send(text);
  });
}

describe('intake: a frame nested deeper than the hosts can carry (embedded and remote alike)', () => {
  let s: HostsServer;
  let socket: WebSocket;
  const threads: Record<'embedded' | 'remote', string> = { embedded: '', remote: '' };
  let nextId = 1;

  before(async () => {
    s = await startHostsServer();
    const remoteHostId = (await s.daemon()).hostId;
    await eventually(
      async () => ((await s.json('/hosts')).find((h: any) => h.id === remoteHostId && h.online) ? true : undefined),
      'remote host online',
    );
    for (const [side, hostId] of [
      ['embedded', s.server.hostId],
      ['remote', remoteHostId],
    ] as const) {
      const project = await s.json('/projects', {
        body: { name: side, source: { type: 'local_path', path: await tempDir(`ats-deep-${side}-`), hostId } },
      });
      threads[side] = (await s.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'fake/model', title: side } })).id;
    }
    socket = await s.intake();
  });
  after(async () => {
    socket?.close();
    await s.closeAll();
  });

  const tempDir = suiteTempDirs();

  for (const side of ['embedded', 'remote'] as const) {
    for (const depth of [50_000, INTAKE_MAX_DEPTH + 1]) {
      it(`${side} host: ${depth} levels deep is -32600 invalid request naming the limit, and the host stays online`, async () => {
        const id = nextId++;
        const answer = await answerTo(socket, nestedFrame(threads[side], id, depth), id);
        expect(answer.id).to.equal(id);
        expect(answer.error.code, JSON.stringify(answer.error)).to.equal(-32600);
        expect(answer.error.message).to.contain(`deeper than ${INTAKE_MAX_DEPTH} levels`);
        const hosts = await s.json('/hosts');
        expect(hosts.every((host: { online: boolean }) => host.online)).to.equal(true);
        const next = await rpc(socket, agentStart(threads[side], nextId++));
        expect(next.error, JSON.stringify(next.error)).to.equal(undefined);
        expect(next.result.seqs).to.be.an('array');
      });
    }
  }

  it('takes a frame exactly INTAKE_MAX_DEPTH levels deep', async () => {
    // The envelope and params take 3 levels of the frame; the message's `deep` field the rest.
    const id = nextId++;
    const answer = await answerTo(socket, nestedFrame(threads.embedded, id, INTAKE_MAX_DEPTH - 3), id);
    expect(answer.error, JSON.stringify(answer.error)).to.equal(undefined);
  });
});

describe('embedded host link: one contract, no copy (issue 17: a frame crosses no JSON in one process)', () => {
  const linkHello = {
    protocolVersion: HOST_DAEMON_PROTOCOL_VERSION,
    hostId: 'host_embedded',
    name: 'embedded',
    platform: 'linux',
    providers: [],
  };
  const linkTo = (served: unknown[]) =>
    connectInProcess(
      {
        hello: linkHello,
        dispatch: async (message) => {
          served.push(message);
          return { jsonrpc: '2.0', id: (message as { id: number }).id, result: { seqs: [1] } };
        },
      },
      { timeoutMs: 5000 },
    );

  it("hands the intake's parsed frame to the daemon as it is, inside a checked request", async () => {
    const served: Array<{ params: { frame: unknown } }> = [];
    const frame = { jsonrpc: '2.0', method: 'sdk/message', params: { threadId: 'thr_a', message: { type: 'agent_start' } } };
    expect(await linkTo(served as unknown[]).request('thread.ingest', { frame, providerThreadId: 'p' })).to.deep.equal({ seqs: [1] });
    expect(served).to.have.length(1);
    expect(served[0]!.params.frame).to.equal(frame);
  });

  it("still refuses params the contract does not accept before a handler sees them (the daemon's dispatcher, its one gate), and stays up", async () => {
    const ingested: unknown[] = [];
    const dispatch = createHostDispatcher({
      'thread.ingest': async (params) => {
        ingested.push(params);
        return { seqs: [1] };
      },
    } as Partial<HostHandlers> as HostHandlers);
    const link = connectInProcess({ hello: linkHello, dispatch }, { timeoutMs: 5000 });
    let closed = false;
    link.closed$.subscribe({ complete: () => (closed = true) });
    const refused = await link.request('thread.ingest', { providerThreadId: 'p' } as never).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(HostRequestError);
    // The same refusal the link's own check gave: the server answers it 400 invalid_params.
    expect((refused as HostRequestError).failure).to.deep.include({ kind: 'refused', rpcCode: -32602, hostCode: 'invalid_params' });
    expect((refused as HostRequestError).message).to.equal('invalid params for thread.ingest');
    expect(ingested).to.deep.equal([]);
    expect(closed).to.equal(false);
    expect(await link.request('thread.ingest', { frame: {}, providerThreadId: 'p' })).to.deep.equal({ seqs: [1] });
  });
});
