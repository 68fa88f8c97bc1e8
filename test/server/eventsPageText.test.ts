import { expect } from 'chai';
import WebSocket from 'ws';
import { agentStart, assistantStart, textDelta } from '../helpers/server/frames';
import { projectWithThread, rpc, startTestServer, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

describe('server: events page answers (kept full pages)', () => {
  let t: TestServer;
  let socket: WebSocket;
  let threadId: string;
  const tempDir = suiteTempDirs();
  let nextId = 1;

  const deltas = async (count: number, label: string) => {
    for (let i = 0; i < count; i++) socket.send(JSON.stringify(textDelta(threadId, `${label} ${i}`)));
    await rpc(socket, textDelta(threadId, `${label} end`, nextId++));
  };
  const page = async (afterSeq: number, limit: number) => {
    const response = await t.api(`/threads/${threadId}/events?afterSeq=${afterSeq}&limit=${limit}`);
    expect(response.status).to.equal(200);
    return { contentType: response.headers.get('content-type'), text: await response.text() };
  };

  before(async () => {
    t = await startTestServer({ config: { agentProviders: 'none' } });
    socket = await t.intake();
    threadId = (await projectWithThread(t, await tempDir('ats-page-'))).thread.id;
    await rpc(socket, agentStart(threadId, nextId++));
    await rpc(socket, assistantStart(threadId, nextId++));
    await deltas(60, 'a');
  });
  after(async () => {
    socket.close();
    await t.close();
  });

  it('answers a page read again with the same bytes, the JSON of the stored rows', async () => {
    const first = await page(10, 20);
    const again = await page(10, 20);
    expect(first.contentType).to.equal('application/json; charset=utf-8');
    expect(again).to.deep.equal(first);
    expect(first.text).to.equal(JSON.stringify(await t.server.store.list(threadId, { afterSeq: 10, limit: 20 })));
    const rows = JSON.parse(first.text) as Array<{ seq: number }>;
    expect(rows.map((row) => row.seq)).to.deep.equal(Array.from({ length: 20 }, (_, i) => 11 + i));
  });

  it('keeps pages of one cursor with different limits apart', async () => {
    const small = JSON.parse((await page(5, 3)).text) as Array<{ seq: number }>;
    const large = JSON.parse((await page(5, 7)).text) as Array<{ seq: number }>;
    expect(small.map((row) => row.seq)).to.deep.equal([6, 7, 8]);
    expect(large.map((row) => row.seq)).to.deep.equal([6, 7, 8, 9, 10, 11, 12]);
    expect(JSON.parse((await page(5, 3)).text)).to.deep.equal(small);
  });

  it('never answers a stale end of the thread: a short page grows with the next rows', async () => {
    const last = await t.server.store.lastSeq(threadId);
    const short = JSON.parse((await page(last - 2, 10)).text) as Array<{ seq: number }>;
    expect(short.map((row) => row.seq)).to.deep.equal([last - 1, last]);
    await deltas(4, 'b');
    const grown = JSON.parse((await page(last - 2, 10)).text) as Array<{ seq: number }>;
    expect(grown.map((row) => row.seq)).to.deep.equal(Array.from({ length: 7 }, (_, i) => last - 1 + i));
    expect(JSON.stringify(grown)).to.equal(JSON.stringify(await t.server.store.list(threadId, { afterSeq: last - 2, limit: 10 })));
  });

  it('still answers 404 for an unknown thread and 400 for a bad cursor', async () => {
    expect((await t.api('/threads/thr_nope/events?afterSeq=0&limit=5')).status).to.equal(404);
    expect((await t.api(`/threads/${threadId}/events?afterSeq=-1`)).status).to.equal(400);
  });
});
