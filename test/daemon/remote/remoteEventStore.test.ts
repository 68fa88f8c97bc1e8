import { expect } from 'chai';
import { lastValueFrom, from } from 'rxjs';
import type { JsonRpcResponse } from '../../../src/protocol/jsonRpc';
import type { DaemonLinkClient } from '../../../src/daemon/remote/daemonLinkClient';
import { JsonText } from '../../../src/link/jsonText';
import { LINK_METHOD } from '../../../src/protocol/daemonLink';
import { openOutbox } from '../../../src/daemon/remote/outbox';
import { createRemoteEventStore } from '../../../src/daemon/remote/remoteEventStore';
import { LinkProtocolError } from '../../../src/link/rpcPeer';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

/** A link that hands every request to `answer`, which may throw as a peer's bad answer would. */
function scriptedLink(
  answer: (method: string, params: unknown) => JsonRpcResponse,
): DaemonLinkClient & { requests: { method: string; params: unknown }[] } {
  const requests: { method: string; params: unknown }[] = [];
  return {
    requests,
    start: () => undefined,
    request: async (method, params) => {
      requests.push({ method, params });
      return answer(method, params);
    },
    onReady: () => undefined,
    refused: new Promise(() => undefined),
    isConnected: () => true,
    maxFrameBytes: () => 64 * 1024 * 1024,
    close: async () => undefined,
  };
}

const event = {
  threadId: 'thr_a',
  type: 'turn/started' as const,
  turnId: 't1',
  scope: { kind: 'turn' as const, turnId: 't1' },
  data: { providerThreadId: 'thr_a', origin: 'client' as const },
};

describe('link: the remote daemon event store', () => {
  const tempDir = suiteTempDirs();

  it('sends a batch as the text it journaled and answers with the stored rows', async () => {
    const outbox = await openOutbox(await tempDir('ats-remote-store-'));
    const link = scriptedLink((method, params) => {
      if (method === LINK_METHOD.lastSeq) return { jsonrpc: '2.0', id: 1, result: { lastSeq: 4 } };
      const batch = JSON.parse((params as JsonText).text);
      return {
        jsonrpc: '2.0',
        id: 2,
        result: { batchId: batch.batchId, stored: [{ seq: 5, id: 'row-5', createdAt: '2026-01-01T00:00:00.000Z' }] },
      };
    });
    const store = createRemoteEventStore({ link, outbox, retryMs: 1, log: () => undefined });
    const rows = await lastValueFrom(from(store.append([event])));
    expect(rows).to.deep.equal([{ ...event, seq: 5, id: 'row-5', createdAt: '2026-01-01T00:00:00.000Z' }]);
    const sent = link.requests.find((request) => request.method === LINK_METHOD.append)!.params;
    expect(sent).to.be.instanceOf(JsonText);
    expect(JSON.parse((sent as JsonText).text)).to.deep.include({ events: [event], firstSeqs: { thr_a: 5 } });
    expect(outbox.pending()).to.deep.equal([]);
  });

  it('asks again after an answer that is not JSON-RPC, keeping the batch journaled until a real answer comes', async () => {
    const outbox = await openOutbox(await tempDir('ats-remote-store-'));
    const logs: string[] = [];
    let appends = 0;
    const pendingWhileAsked: number[] = [];
    const link = scriptedLink((method, params) => {
      if (method === LINK_METHOD.lastSeq) return { jsonrpc: '2.0', id: 1, result: { lastSeq: 0 } };
      pendingWhileAsked.push(outbox.pending().length);
      if (++appends === 1) throw new LinkProtocolError('malformed answer to store.append');
      return {
        jsonrpc: '2.0',
        id: 2,
        result: {
          batchId: JSON.parse((params as JsonText).text).batchId,
          stored: [{ seq: 1, id: 'row-1', createdAt: '2026-01-01T00:00:00.000Z' }],
        },
      };
    });
    const store = createRemoteEventStore({ link, outbox, retryMs: 1, log: (line) => logs.push(line) });
    const rows = await lastValueFrom(from(store.append([event])));
    expect(rows.map((row) => row.seq)).to.deep.equal([1]);
    expect(appends).to.equal(2);
    expect(pendingWhileAsked).to.deep.equal([1, 1]);
    expect(outbox.pending()).to.deep.equal([]);
    expect(logs.some((line) => line.includes('malformed answer'))).to.equal(true);
  });
});
