import { expect } from 'chai';
import path from 'node:path';
import { WebhookNotificationSchema } from '../../../src/notifications/webhookNotification';
import { askingProvider } from '../../helpers/fakes/askingProvider';
import { fakeProvider } from '../../helpers/fakes/provider';
import { freePort, hasValidSignature, startWebhookReceiver, type WebhookReceiver } from '../../helpers/fakes/webhookReceiver';
import { eventually } from '../../helpers/server/eventually';
import { projectWithThread, rpc, startTestServer, type TestServer } from '../../helpers/server/harness';
import { agentStart } from '../../helpers/server/frames';
import { RUN_LOST_MESSAGE } from '../../../src/turns/ruleInput';
import { completedTurns, completions, eventsUntil } from '../../helpers/server/threadRows';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

const SECRET = 'test-webhook-secret-0123456789';

describe('server: webhook notifications (ATS_NOTIFY_WEBHOOK, issue 31)', () => {
  const tempDir = suiteTempDirs();
  let receiver: WebhookReceiver;
  let t: TestServer;
  let projectId: string;
  let folder: string;
  const logs: string[] = [];
  const webhookLogs = () => logs.filter((line) => line.startsWith('notify webhook'));

  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    folder = await tempDir('ats-webhook-');
    logs.length = 0;
    t = await startTestServer({
      providers: [fakeProvider(), askingProvider()],
      config: {
        notifyWebhook: receiver.url,
        notifyWebhookSecret: SECRET,
        // Short backoff, so a receiver that comes back is retried within the test.
        notifyRetryInitialMs: 20,
        notifyRetryMaxMs: 100,
        // Long enough that the policy's answer always beats it on a loaded machine.
        notifyApprovalSettleMs: 1_000,
      },
      log: (line) => logs.push(line),
    });
    const project = await t.json('/projects', {
      body: { name: 'p', source: { type: 'local_path', path: folder, hostId: t.server.hostId } },
    });
    projectId = project.id;
  });
  afterEach(async () => {
    receiver.release();
    await t.close();
    await receiver.close();
  });

  const newThread = (body: Record<string, unknown>) =>
    t.json('/threads', { body: { projectId, provider: 'fake', model: 'fake/model', title: 'fix the tests', ...body } });
  const prompt = (threadId: string, text: string) => t.json(`/threads/${threadId}/messages`, { body: { prompt: text } });
  const deliveredCount = (count: number) =>
    eventually(() => (receiver.delivered().length >= count ? receiver.delivered() : undefined), `${count} POSTs`, 15_000);

  it('one signed POST per finished turn, with the thread, what happened and a link to the page at the thread', async () => {
    const thread = await newThread({ prompt: 'hi' });
    const [first] = await deliveredCount(1);
    await prompt(thread.id, 'again');
    const events = await eventsUntil(t, thread.id, completedTurns(2));
    const delivered = await deliveredCount(2);

    expect(receiver.posts).to.have.length(2);
    for (const post of receiver.posts) {
      expect(hasValidSignature(post, SECRET)).to.equal(true);
      expect(post.headers['content-type']).to.equal('application/json');
      expect(WebhookNotificationSchema.safeParse(JSON.parse(post.body)).success).to.equal(true);
    }
    const ends = completions(events);
    expect(first).to.deep.include({
      event: 'turn.completed',
      threadId: thread.id,
      title: 'fix the tests',
      projectId,
      seq: ends[0]!.seq,
      turnId: ends[0]!.turnId,
      status: 'completed',
      summary: 'echo: hi',
      url: `${t.server.url}/#/threads/${thread.id}`,
    });
    expect(delivered[1]).to.deep.include({ seq: ends[1]!.seq, summary: 'echo: again' });
    expect(receiver.posts.map((post) => post.headers['x-ats-delivery'])).to.deep.equal(ends.map((end) => `${thread.id}:${end.seq}`));
    expect(receiver.posts.map((post) => post.headers['x-ats-event'])).to.deep.equal(['turn.completed', 'turn.completed']);
  });

  it('a question that waits for the user is POSTed once (approval.requested); one the policy answers at once is not', async () => {
    const asking = await newThread({ provider: 'asking', permissionMode: 'ask' });
    await prompt(asking.id, 'rm -rf build');
    const [question] = await deliveredCount(1);
    const view = await t.json(`/threads/${asking.id}`);
    expect(question).to.deep.include({ event: 'approval.requested', threadId: asking.id, approvalId: view.runtime.pendingApprovalIds[0] });
    expect(question.summary).to.contain('rm -rf build');
    await t.json(`/threads/${asking.id}/approvals/${question.approvalId}`, { body: { optionId: 'allow-once' } });
    await deliveredCount(2);

    // accept-edits: an edit inside the thread's folder is allowed by policy, so nobody waited.
    const editing = await newThread({ provider: 'asking', permissionMode: 'accept-edits' });
    await prompt(editing.id, `edit ${path.join(folder, 'a.txt')}`);
    await eventsUntil(t, editing.id, completedTurns(1));
    const delivered = await deliveredCount(3);
    expect(delivered.map((body) => `${body.threadId === asking.id ? 'asking' : 'editing'} ${body.event}`)).to.deep.equal([
      'asking approval.requested',
      'asking turn.completed',
      'editing turn.completed',
    ]);
  });

  it('a receiver that fails (500) and comes back gets every event, in order; the outage is logged once, not per event or retry', async () => {
    receiver.answerWith(500);
    const thread = await newThread({ prompt: 'one' });
    await eventsUntil(t, thread.id, completedTurns(1));
    await prompt(thread.id, 'two');
    await eventsUntil(t, thread.id, completedTurns(2));
    await eventually(() => (receiver.posts.length >= 4 ? true : undefined), 'four failed POSTs');
    receiver.answerWith(200);
    const delivered = await deliveredCount(2);

    expect(delivered.map((body) => body.summary)).to.deep.equal(['echo: one', 'echo: two']);
    expect(
      receiver.posts
        .filter((post) => post.status === 500)
        .every((post) => post.headers['x-ats-delivery'] === receiver.posts[0]!.headers['x-ats-delivery']),
    ).to.equal(true);
    await eventually(() => (webhookLogs().length >= 2 ? true : undefined), 'the recovery line');
    const origin = new URL(receiver.url).origin;
    expect(webhookLogs()).to.have.length(2);
    expect(webhookLogs()[0]).to.equal(`notify webhook ${origin}: POST failed (HTTP 500); retrying with backoff, quiet until one lands`);
    expect(webhookLogs()[1]).to.match(new RegExp(`^notify webhook ${origin}: delivering again after \\d+ s \\(\\d+ failed attempts\\)$`));
    expect(logs.join('\n')).not.to.contain(SECRET);
  });

  it('a receiver not listening yet (connection refused) gets the event once it starts, at the same URL', async () => {
    const port = await freePort();
    const late = await startTestServer({
      providers: [fakeProvider()],
      config: {
        notifyWebhook: `http://127.0.0.1:${port}/hook`,
        notifyWebhookSecret: SECRET,
        notifyRetryInitialMs: 20,
        notifyRetryMaxMs: 100,
      },
      log: (line) => logs.push(line),
    });
    try {
      const project = await late.json('/projects', {
        body: { name: 'p', source: { type: 'local_path', path: folder, hostId: late.server.hostId } },
      });
      const thread = await late.json('/threads', {
        body: { projectId: project.id, provider: 'fake', model: 'fake/model', title: 'late', prompt: 'hi' },
      });
      await eventsUntil(late, thread.id, completedTurns(1));
      await eventually(() => (webhookLogs().some((line) => line.includes('ECONNREFUSED')) ? true : undefined), 'the failure line');
      const started = await startWebhookReceiver(port);
      try {
        const [body] = await eventually(() => (started.delivered().length > 0 ? started.delivered() : undefined), 'the POST', 15_000);
        expect(body).to.deep.include({ event: 'turn.completed', threadId: thread.id, summary: 'echo: hi' });
        expect(hasValidSignature(started.posts[0]!, SECRET)).to.equal(true);
      } finally {
        await started.close();
      }
    } finally {
      await late.close();
    }
  });

  it('a slow receiver does not hold up the thread: turns complete and are readable over HTTP while it holds a POST', async () => {
    receiver.hold();
    const thread = await newThread({ prompt: 'one' });
    await eventually(() => (receiver.posts.length === 1 ? true : undefined), 'the held POST');
    // The queue waits on the receiver; the thread does not.
    await prompt(thread.id, 'two');
    await prompt(thread.id, 'three');
    const events = await eventsUntil(t, thread.id, completedTurns(3));
    expect(completions(events).map((end) => end.data.status)).to.deep.equal(['completed', 'completed', 'completed']);
    expect(receiver.posts).to.have.length(1);
    expect(receiver.posts[0]!.status).to.equal(undefined);

    receiver.release();
    const delivered = await deliveredCount(3);
    expect(delivered.map((body) => body.summary)).to.deep.equal(['echo: one', 'echo: two', 'echo: three']);
  });
});

describe('server: a run lost with its process is notified (ATS_NOTIFY_WEBHOOK, issue 31)', () => {
  const tempDir = suiteTempDirs();

  it('a turn left open by a server that stopped is POSTed as turn.failed (interrupted, with the reason) after the restart', async () => {
    const receiver = await startWebhookReceiver();
    const folder = await tempDir('ats-webhook-lost-');
    const config = { notifyWebhook: receiver.url, notifyWebhookSecret: SECRET };
    const first = await startTestServer({ config });
    const { thread } = await projectWithThread(first, folder);
    const socket = await first.intake();
    await rpc(socket, agentStart(thread.id, 1));
    socket.close();
    await first.close({ keepData: true });
    const second = await startTestServer({ config, dataDir: first.dataDir });
    try {
      // The next frame reads the thread back: its open turn belonged to a process that is gone.
      const again = await second.intake();
      await rpc(again, agentStart(thread.id, 2));
      again.close();
      await eventsUntil(second, thread.id, completedTurns(1));
      const [lost] = await eventually(() => (receiver.delivered().length > 0 ? receiver.delivered() : undefined), 'the POST', 15_000);
      expect(lost).to.deep.include({ event: 'turn.failed', status: 'interrupted', threadId: thread.id, summary: RUN_LOST_MESSAGE });
      expect(lost.url).to.equal(`${second.server.url}/#/threads/${thread.id}`);
    } finally {
      await second.close();
      await receiver.close();
    }
  });
});
