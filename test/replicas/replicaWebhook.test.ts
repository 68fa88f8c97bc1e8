import { expect } from 'chai';
import { fakeProvider } from '../helpers/fakes/provider';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/fakes/webhookReceiver';
import { eventually } from '../helpers/server/eventually';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server/harness';
import { openSse, type SseClient } from '../helpers/server/sse';
import { describeWithPostgres } from '../helpers/store/postgresDatabase';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

describeWithPostgres('webhook notifications on replicas (two servers on one PostgreSQL, issue 31)', (db) => {
  const tempDir = suiteTempDirs();
  let a: TestServer;
  let b: TestServer;
  let receiver: WebhookReceiver;
  let sse: SseClient | undefined;
  const PAGE = 'https://ats.example.org/team';

  before(async () => {
    receiver = await startWebhookReceiver();
    const config = {
      databaseUrl: db().url,
      replicaHeartbeatMs: 200,
      replicaDeadAfterMs: 1_000,
      notifyWebhook: receiver.url,
      notifyWebhookSecret: 'replica-webhook-secret-0123',
      publicUrl: PAGE,
    };
    a = await startTestServer({ config, providers: [fakeProvider()] });
    b = await startTestServer({ config: { ...config, embeddedHost: '0' } });
  });
  after(async () => {
    sse?.close();
    await b?.close();
    await a?.close();
    await receiver?.close();
  });

  it('each event is POSTed once, by the replica that stored it, though the other streams the same rows', async () => {
    const folder = await tempDir('ats-replica-webhook-');
    const project = await b.json('/projects', {
      body: { name: 'p', source: { type: 'local_path', path: folder, hostId: a.server.hostId } },
    });
    const thread = await b.json('/threads', { body: { projectId: project.id, provider: 'fake', model: 'fake/model', title: 'shared' } });
    // A reader on B: B's replica feed publishes A's rows to B's hub as they are stored.
    const client = (sse = await openSse(`${b.server.url}/api/v1/threads/${thread.id}/events/stream`, {
      authorization: `Bearer ${TEST_TOKEN}`,
    }));
    const turnEndsOnB = async () => (await client.events(0)).filter((event) => event.data.type === 'turn/completed').length;

    for (const [i, text] of ['one', 'two', 'three'].entries()) {
      await b.json(`/threads/${thread.id}/messages`, { body: { prompt: text } });
      await eventually(async () => ((await turnEndsOnB()) > i ? true : undefined), `turn ${i + 1} streamed on B`, 15_000);
      await eventually(() => (receiver.delivered().length > i ? true : undefined), `POST ${i + 1}`, 15_000);
    }

    expect(receiver.posts.map((post) => post.status)).to.deep.equal([200, 200, 200]);
    expect(new Set(receiver.posts.map((post) => post.headers['x-ats-delivery'])).size).to.equal(3);
    expect(receiver.delivered().map((body) => [body.summary, body.url])).to.deep.equal(
      ['one', 'two', 'three'].map((text) => [`echo: ${text}`, `${PAGE}/#/threads/${thread.id}`]),
    );
  });
});
