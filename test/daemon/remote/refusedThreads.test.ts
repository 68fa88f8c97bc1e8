import { expect } from 'chai';
import { from, lastValueFrom } from 'rxjs';
import type { DaemonLinkClient, ReadyHook } from '../../../src/daemon/remote/daemonLinkClient';
import { openOutbox } from '../../../src/daemon/remote/outbox';
import { BatchRejected, createRemoteEventStore } from '../../../src/daemon/remote/remoteEventStore';
import { JsonText } from '../../../src/link/jsonText';
import { LINK_METHOD, THREAD_NOT_OWNED, type AppendBatch } from '../../../src/protocol/daemonLink';
import type { JsonRpcResponse } from '../../../src/protocol/jsonRpc';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

const event = (threadId: string, turnId = 't1') => ({
  threadId,
  type: 'turn/started' as const,
  turnId,
  scope: { kind: 'turn' as const, turnId },
  data: { providerThreadId: threadId, origin: 'client' as const },
});

/**
 * A server that knows `thr_gone` no more (deleted while the daemon was away): every batch naming it is refused
 * whole, as the real link does; the rest is stored from seq 1 on per thread.
 */
function serverWithout(gone: string) {
  const appended: AppendBatch[] = [];
  const seqs = new Map<string, number>();
  const answer = (method: string, params: unknown): JsonRpcResponse => {
    if (method === LINK_METHOD.lastSeq) return { jsonrpc: '2.0', id: 1, result: { lastSeq: 0 } };
    const batch: AppendBatch = params instanceof JsonText ? JSON.parse(params.text) : (params as AppendBatch);
    const threads = new Set([...batch.events.map((e) => e.threadId), ...Object.keys(batch.firstSeqs)]);
    if (threads.has(gone))
      return {
        jsonrpc: '2.0',
        id: 2,
        error: { code: THREAD_NOT_OWNED, message: `not a thread of host h: ${gone}`, data: { threadIds: [gone] } },
      };
    appended.push(batch);
    const stored = batch.events.map((e) => {
      const seq = (seqs.get(e.threadId) ?? 0) + 1;
      seqs.set(e.threadId, seq);
      return { seq, id: `row-${e.threadId}-${seq}`, createdAt: '2026-01-01T00:00:00.000Z' };
    });
    return { jsonrpc: '2.0', id: 2, result: { batchId: batch.batchId, stored } };
  };
  const hooks: ReadyHook[] = [];
  const link: DaemonLinkClient = {
    start: () => undefined,
    request: async (method, params) => answer(method, params),
    onReady: (hook) => hooks.push(hook),
    refused: new Promise(() => undefined),
    isConnected: () => true,
    maxFrameBytes: () => 64 * 1024 * 1024,
    close: async () => undefined,
  };
  /** What a new link does before anything else may use it. */
  const relink = async () => {
    for (const hook of hooks) await hook(async (method, params) => answer(method, params));
  };
  return { link, appended, relink };
}

describe('link: a daemon told a thread is not its own drops that thread’s rows and goes on (issue 37)', () => {
  const tempDir = suiteTempDirs();

  it('unacked batches of a thread deleted while the daemon was away: dropped, the rest re-sent, said once, the outbox empty', async () => {
    const dir = await tempDir('ats-refused-outbox-');
    const earlier = await openOutbox(dir);
    earlier.add({ batchId: 'b1', events: [event('thr_gone'), event('thr_kept')], firstSeqs: { thr_gone: 4, thr_kept: 1 } });
    earlier.add({ batchId: 'b2', events: [event('thr_gone', 't2')], firstSeqs: { thr_gone: 5 } });
    earlier.add({ batchId: 'b3', events: [event('thr_kept', 't2')], firstSeqs: { thr_kept: 2 } });
    earlier.close();

    const outbox = await openOutbox(dir);
    const server = serverWithout('thr_gone');
    const logs: string[] = [];
    createRemoteEventStore({ link: server.link, outbox, retryMs: 1, log: (line) => logs.push(line) });
    await server.relink();

    expect(server.appended.map((batch) => batch.events.map((e) => `${e.threadId}/${e.turnId}`))).to.deep.equal([
      ['thr_kept/t1'],
      ['thr_kept/t2'],
    ]);
    expect(server.appended[0]!.firstSeqs).to.deep.equal({ thr_kept: 1 });
    expect(outbox.pending()).to.deep.equal([]);
    expect(logs.filter((line) => line.includes('thr_gone'))).to.have.length(1);
    expect(logs.find((line) => line.includes('thr_gone'))).to.match(/not a thread of this host/);
    // A restart finds nothing left to send: the refusal did not wedge the outbox.
    outbox.close();
    expect((await openOutbox(dir)).pending()).to.deep.equal([]);
  });

  it('a live append mixing a refused thread with another: the other’s rows are stored, the append fails naming the refusal', async () => {
    const outbox = await openOutbox(await tempDir('ats-refused-live-'));
    const server = serverWithout('thr_gone');
    const logs: string[] = [];
    const store = createRemoteEventStore({ link: server.link, outbox, retryMs: 1, log: (line) => logs.push(line) });
    let failure: unknown;
    await lastValueFrom(from(store.append([event('thr_gone'), event('thr_kept')]))).catch((error: unknown) => (failure = error));
    expect(failure).to.be.instanceOf(BatchRejected);
    expect(String(failure)).to.contain('thr_gone');
    expect(server.appended.map((batch) => batch.events.map((e) => e.threadId))).to.deep.equal([['thr_kept']]);
    expect(outbox.pending()).to.deep.equal([]);
    // The kept thread goes on at its next seq; the gone one keeps being refused, said once only.
    const next = await lastValueFrom(from(store.append([event('thr_kept', 't2')])));
    expect(next.map((row) => row.seq)).to.deep.equal([2]);
    await lastValueFrom(from(store.append([event('thr_gone', 't3')]))).catch(() => undefined);
    expect(logs.filter((line) => line.includes('thr_gone'))).to.have.length(1);
    outbox.close();
  });
});
