import { expect } from 'chai';
import { Pool } from 'pg';
import { fakeProvider } from '../helpers/fakes/provider';
import { startTestServer, type TestServer } from '../helpers/server/harness';
import { eventsUntil } from '../helpers/server/threadRows';
import { describeWithPostgres } from '../helpers/store/postgresDatabase';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';
import { retryUntil } from './retryUntil';

/** An SSE stream read as raw text, to see the named `event: deleted` and the stream's end. */
function rawSse(t: TestServer, threadId: string) {
  const controller = new AbortController();
  let text = '';
  const ended = fetch(`${t.server.url}/api/v1/threads/${threadId}/events/stream`, {
    headers: { authorization: `Bearer ${t.server.token}` },
    signal: controller.signal,
  }).then(async (response) => {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) text += Buffer.from(chunk).toString('utf8');
    return text;
  });
  return { ended, text: () => text, close: () => controller.abort() };
}

describeWithPostgres('a thread deleted through one replica (two servers on one PostgreSQL, issue 28)', (db) => {
  let a: TestServer;
  let b: TestServer;
  const tempDir = suiteTempDirs();
  const replicaConfig = () => ({
    databaseUrl: db().url,
    replicaHeartbeatMs: 200,
    replicaDeadAfterMs: 1_000,
    hostReconnectGraceMs: 60_000,
    sseCatchUpMs: 200,
  });

  before(async () => {
    a = await startTestServer({ config: replicaConfig(), providers: [fakeProvider('pi')] });
    b = await startTestServer({ config: { ...replicaConfig(), embeddedHost: '0' } });
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  it('answers 404 on A and B, its rows are gone, neither lists it, and so after A restarts', async () => {
    const folder = await tempDir('ats-replica-delete-');
    const project = await b.json('/projects', {
      body: { name: 'p', source: { type: 'local_path', path: folder, hostId: a.server.hostId } },
    });
    const create = (title: string) => b.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'fake/model', title } });
    const [deleted, kept] = [await create('deleted'), await create('kept')];
    // Rows of both kinds a delete meets: a turn left open on A's host, and a rename.
    await b.json(`/threads/${deleted.id}/messages`, { body: { prompt: 'hang' } });
    await eventsUntil(b, deleted.id, (events) => events.some((event) => event.type === 'item/agentMessage/delta'));
    await a.json(`/threads/${deleted.id}`, { method: 'PATCH', body: { title: 'renamed on A' } });
    await b.json(`/threads/${kept.id}`, { method: 'PATCH', body: { title: 'kept, renamed' } });
    const readers = [rawSse(a, deleted.id), rawSse(b, deleted.id)];
    await retryUntil(async () => {
      for (const reader of readers) expect(reader.text()).to.include('thread/updated');
    });

    expect((await b.api(`/threads/${deleted.id}`, { method: 'DELETE' })).status).to.equal(204);

    const expectGone = async (servers: TestServer[]) => {
      for (const t of servers) {
        for (const route of [`/threads/${deleted.id}`, `/threads/${deleted.id}/events`, `/threads/${deleted.id}/events/stream`]) {
          expect((await t.api(route)).status, `${route} on ${t === a ? 'A' : 'B'}`).to.equal(404);
        }
        expect((await t.api(`/threads/${deleted.id}`, { method: 'DELETE' })).status).to.equal(404);
        const listed = (await t.json('/threads')).map((view: { id: string }) => view.id);
        expect(listed).to.include(kept.id).and.not.include(deleted.id);
        expect((await t.json('/threads?archived=true')).map((view: { id: string }) => view.id)).to.not.include(deleted.id);
        expect(await t.server.store.list(deleted.id)).to.deep.equal([]);
        expect(await t.server.store.lastSeq(deleted.id)).to.equal(0);
        expect(await t.server.registry.threads.deleting()).to.deep.equal([]);
        expect((await t.json(`/threads/${kept.id}/events`)).map((row: { seq: number }) => row.seq)).to.deep.equal([1]);
      }
    };
    await expectGone([a, b]);
    // Readers on both replicas learn it is gone, and their streams end.
    for (const reader of readers)
      expect((await reader.ended).trimEnd().endsWith(`event: deleted\ndata: {"threadId":"${deleted.id}"}`)).to.equal(true);

    await a.close({ keepData: true });
    a = await startTestServer({ config: replicaConfig(), providers: [fakeProvider('pi')], dataDir: a.dataDir });
    await expectGone([a, b]);
  });

  it('a reader on A is told at the next catch-up when the delete’s notice never reached A', async () => {
    const folder = await tempDir('ats-replica-delete-lost-');
    const project = await b.json('/projects', {
      body: { name: 'p', source: { type: 'local_path', path: folder, hostId: a.server.hostId } },
    });
    const thread = await b.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'fake/model', title: 't' } });
    await b.json(`/threads/${thread.id}`, { method: 'PATCH', body: { title: 'renamed' } });
    const reader = rawSse(a, thread.id);
    await retryUntil(async () => expect(reader.text()).to.include('thread/updated'));
    // B's delete without its notification: the tombstone, the rows (the store's delete, whose notice is what
    // gets lost here, is replaced by the bare SQL), the record.
    await b.server.registry.threads.markDeleting(thread.id);
    const pool = new Pool({ connectionString: db().url });
    try {
      await pool.query('DELETE FROM thread_events WHERE thread_id = $1', [thread.id]);
      await pool.query('DELETE FROM thread_heads WHERE thread_id = $1', [thread.id]);
    } finally {
      await pool.end();
    }
    await b.server.registry.threads.remove(thread.id);
    expect((await reader.ended).trimEnd().endsWith(`event: deleted\ndata: {"threadId":"${thread.id}"}`)).to.equal(true);
  });
});
