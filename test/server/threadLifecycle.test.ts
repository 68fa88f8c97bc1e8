import { expect } from 'chai';
import { fakeProvider } from '../helpers/fakes/provider';
import { startTestServer, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

/** An SSE stream read as raw text, to see named events (`event: deleted`) and the stream's end. */
function rawSse(t: TestServer, threadId: string) {
  const controller = new AbortController();
  let text = '';
  const opened = fetch(`${t.server.url}/api/v1/threads/${threadId}/events/stream`, {
    headers: { authorization: `Bearer ${t.server.token}` },
    signal: controller.signal,
  });
  const ended = opened.then(async (response) => {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) text += Buffer.from(chunk).toString('utf8');
    return text;
  });
  return {
    ended,
    /** Resolves once the text so far contains `needle`. */
    async until(needle: string): Promise<string> {
      while (!text.includes(needle)) await new Promise((resolve) => setTimeout(resolve, 10));
      return text;
    },
    close: () => controller.abort(),
  };
}

describe('server: thread lifecycle (issue 28): rename, archive, delete', () => {
  let t: TestServer;
  let projectId: string;
  const provider = fakeProvider('fake');
  const tempDir = suiteTempDirs();

  async function newThread(title = 't') {
    return t.json('/threads', { body: { projectId, provider: 'fake', model: 'fake/model', title } });
  }
  async function eventsUntil(threadId: string, done: (types: string[]) => boolean): Promise<{ type: string; data: any }[]> {
    for (;;) {
      const events = await t.json(`/threads/${threadId}/events?limit=1000`);
      if (done(events.map((e: { type: string }) => e.type))) return events;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  before(async () => {
    t = await startTestServer({ providers: [provider] });
    const folder = await tempDir('ats-lifecycle-');
    projectId = (await t.json('/projects', { body: { name: 'p', source: { type: 'local_path', path: folder, hostId: t.server.hostId } } }))
      .id;
  });
  after(() => t.close());

  it('a new thread’s view says it is not archived, not kept running, and its agent state', async () => {
    const thread = await newThread();
    expect(thread).to.deep.include({ archived: false, keepAgentRunning: false });
    expect(['stopped', 'starting', 'running']).to.include(thread.agent);
  });

  it('a rename answers the renamed thread and reaches a second SSE reader as a thread/updated row', async () => {
    const thread = await newThread('before');
    const second = rawSse(t, thread.id);
    await second.until(': connected');
    const renamed = await t.json(`/threads/${thread.id}`, { method: 'PATCH', body: { title: 'after' } });
    expect(renamed.title).to.equal('after');
    expect((await t.json(`/threads/${thread.id}`)).title).to.equal('after');
    const text = await second.until('thread/updated');
    second.close();
    const row = JSON.parse(/data: (\{.*"thread\/updated".*\})/.exec(text)![1]!);
    expect(row).to.deep.include({ seq: 1, type: 'thread/updated', turnId: null });
    expect(row.data).to.deep.equal({ providerThreadId: thread.providerThreadId, title: 'after' });
  });

  it('an archived thread refuses prompts (409 thread_archived), leaves the default list, keeps its rows; unarchive restores it', async () => {
    const thread = await newThread();
    await t.api(`/threads/${thread.id}/messages`, { body: { prompt: 'hello' } });
    await eventsUntil(thread.id, (types) => types.includes('turn/completed'));
    const archived = await t.json(`/threads/${thread.id}`, { method: 'PATCH', body: { archived: true } });
    expect(archived).to.deep.include({ archived: true, agent: 'stopped' });
    const refused = await t.api(`/threads/${thread.id}/messages`, { body: { prompt: 'again' } });
    expect(refused.status).to.equal(409);
    expect(((await refused.json()) as { code: string }).code).to.equal('thread_archived');
    expect((await t.json('/threads')).map((x: { id: string }) => x.id)).to.not.include(thread.id);
    expect((await t.json('/threads?archived=true')).map((x: { id: string }) => x.id)).to.deep.equal([thread.id]);
    const rows = await t.json(`/threads/${thread.id}/events`);
    expect(rows.map((row: { type: string }) => row.type)).to.include('turn/completed');
    expect(rows[rows.length - 1]).to.deep.include({ type: 'thread/updated' });
    expect(rows[rows.length - 1].data).to.deep.include({ archived: true });

    const back = await t.json(`/threads/${thread.id}`, { method: 'PATCH', body: { archived: false } });
    expect(back.archived).to.equal(false);
    expect((await t.api(`/threads/${thread.id}/messages`, { body: { prompt: 'back' } })).status).to.equal(202);
    expect((await t.json('/threads')).map((x: { id: string }) => x.id)).to.include(thread.id);
    expect((await t.json('/threads?archived=true')).map((x: { id: string }) => x.id)).to.not.include(thread.id);
  });

  it('a delete stops the open turn first (interrupted), tells SSE readers, ends their streams, and the id answers 404', async () => {
    const thread = await newThread();
    await t.api(`/threads/${thread.id}/messages`, { body: { prompt: 'hang' } });
    await eventsUntil(thread.id, (types) => types.includes('item/agentMessage/delta'));
    const readers = [rawSse(t, thread.id), rawSse(t, thread.id)];
    await Promise.all(readers.map((reader) => reader.until('item/agentMessage/delta')));
    const response = await t.api(`/threads/${thread.id}`, { method: 'DELETE' });
    expect(response.status).to.equal(204);
    for (const reader of readers) {
      const text = await reader.ended; // the stream ends: no close from this side
      expect(text).to.match(/"status":"interrupted"/);
      expect(text.indexOf('"status":"interrupted"')).to.be.lessThan(text.indexOf('event: deleted'));
      expect(text.trimEnd().endsWith(`event: deleted\ndata: {"threadId":"${thread.id}"}`)).to.equal(true);
    }
    for (const route of [`/threads/${thread.id}`, `/threads/${thread.id}/events`, `/threads/${thread.id}/events/stream`]) {
      expect((await t.api(route)).status, route).to.equal(404);
    }
    expect((await t.api(`/threads/${thread.id}`, { method: 'DELETE' })).status).to.equal(404);
    expect((await t.api(`/threads/${thread.id}`, { method: 'PATCH', body: { title: 'x' } })).status).to.equal(404);
    expect((await t.json('/threads')).map((x: { id: string }) => x.id)).to.not.include(thread.id);
    expect(await t.server.store.list(thread.id)).to.deep.equal([]);
  });
});

describe('server: a deleted thread after a restart (issue 28)', () => {
  const tempDir = suiteTempDirs();

  it('answers 404 after a restart, and a delete cut off after its tombstone is finished by the next start', async () => {
    const provider = fakeProvider('fake');
    let t = await startTestServer({ providers: [provider] });
    const dataDir = t.dataDir;
    const folder = await tempDir('ats-lifecycle-restart-');
    const project = await t.json('/projects', {
      body: { name: 'p', source: { type: 'local_path', path: folder, hostId: t.server.hostId } },
    });
    const create = () => t.json('/threads', { body: { projectId: project.id, provider: 'fake', model: 'fake/model', title: 't' } });
    const [deleted, cutOff, kept] = [await create(), await create(), await create()];
    for (const thread of [deleted, cutOff, kept])
      await t.json(`/threads/${thread.id}`, { method: 'PATCH', body: { title: `renamed ${thread.id}` } });
    expect((await t.api(`/threads/${deleted.id}`, { method: 'DELETE' })).status).to.equal(204);
    await t.server.registry.threads.markDeleting(cutOff.id); // as if the process died right after the tombstone
    await t.close({ keepData: true });

    t = await startTestServer({ providers: [fakeProvider('fake')], dataDir });
    try {
      for (const thread of [deleted, cutOff]) expect((await t.api(`/threads/${thread.id}`)).status).to.equal(404);
      expect((await t.json(`/threads/${kept.id}/events`)).length).to.equal(1);
      for (;;) {
        const left = await t.server.registry.threads.deleting();
        if (left.length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(await t.server.store.list(cutOff.id)).to.deep.equal([]);
    } finally {
      await t.close();
    }
  });
});
