import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DaemonConfigSchema } from '../../../src/config/daemonConfig';
import { startRemoteDaemon } from '../../../src/daemon/remote/startRemoteDaemon';
import { REOPEN_CONCURRENCY } from '../../../src/server/threads/reopenThreadsOnAttach';
import { eventually } from '../../helpers/server/eventually';
import { fakeProvider } from '../../helpers/fakes/provider';
import { startTestServer, TEST_TOKEN, type TestServer } from '../../helpers/server/harness';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('threads re-open when their host comes online', () => {
  let folder: string;
  before(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'ats-reopen-'));
  });
  after(() => rm(folder, { recursive: true, force: true }));

  const createThreads = async (t: TestServer, hostId: string, providers: string[]) => {
    const project = await t.json('/projects', { body: { name: 'reopen', source: { type: 'local_path', path: folder, hostId } } });
    const threads: Array<{ id: string; providerThreadId: string }> = [];
    for (const provider of providers) {
      threads.push(await t.json('/threads', { body: { projectId: project.id, provider, model: 'fake/model', title: provider } }));
      await pause(3); // distinct createdAt, so "newest first" is well defined
    }
    return threads;
  };
  /** Gives each agent thread a session (a first prompt), then marks it kept running, as a PATCH would. */
  const keepRunning = async (t: TestServer, threads: Array<{ id: string; providerThreadId: string }>) => {
    for (const [index, thread] of threads.entries()) {
      await t.api(`/threads/${thread.id}/messages`, { body: { prompt: 'hi' } }); // 409 for the intake-only one
      const record = (await t.server.registry.threads.get(thread.id))!;
      threads[index] = (await t.server.registry.threads.put({ ...record, keepAgentRunning: true })) as {
        id: string;
        providerThreadId: string;
      };
    }
  };

  it("a server restart re-opens the embedded host's kept-running threads, resuming each session, newest first, a few at a time, without holding up the start", async () => {
    const first = await startTestServer({ providers: [fakeProvider('fake')] });
    const [lazy] = await createThreads(first, first.server.hostId, ['fake']);
    const threads = await createThreads(first, first.server.hostId, ['fake', 'fake', 'fake', 'pi']);
    await keepRunning(first, threads);
    const [a, b, c, intakeOnly] = threads;
    await first.close({ keepData: true });

    let release!: () => void;
    const restarted = fakeProvider('fake', { openGate: new Promise<void>((resolve) => (release = resolve)) });
    // Resolves although no thread can finish opening yet: the embedded host's hello is not held up.
    const second = await startTestServer({ dataDir: first.dataDir, providers: [restarted] });
    try {
      expect((await second.json(`/hosts/${second.server.hostId}`)).online).to.equal(true);
      await eventually(() => (restarted.opened.length >= REOPEN_CONCURRENCY ? true : undefined), 'the first re-opens');
      await pause(50);
      expect(restarted.opened).to.have.length(REOPEN_CONCURRENCY);

      release();
      await eventually(() => (restarted.opened.length === 3 ? true : undefined), 'every agent thread re-opened');
      // Newest first: the two newest take the first slots (they open side by side, in either order), the oldest waits.
      const reopened = restarted.opened.map((o) => [o.threadId, o.resumeProviderThreadId]);
      expect(reopened.slice(0, REOPEN_CONCURRENCY)).to.have.deep.members([
        [c!.id, c!.providerThreadId],
        [b!.id, b!.providerThreadId],
      ]);
      expect(reopened[2]).to.deep.equal([a!.id, a!.providerThreadId]);
      expect(a!.providerThreadId).to.equal(`session-${a!.id}`);
      expect(intakeOnly!.providerThreadId).to.equal(intakeOnly!.id); // its provider does not run here: nothing to open
      expect(restarted.opened.map((o) => o.threadId)).not.to.include(lazy!.id); // not kept running: opened by its first prompt

      // The re-opened agent serves the next prompt; nothing opens a second one.
      await second.json(`/threads/${a!.id}/messages`, { body: { prompt: 'hi' } });
      expect(restarted.opened).to.have.length(3);
    } finally {
      release();
      await second.close();
    }
  });

  it('a thread whose agent does not open in time is logged and holds up none of the others', async () => {
    const first = await startTestServer({ providers: [fakeProvider('fake'), fakeProvider('stuck')] });
    // Newest first: the stuck thread is opened first and keeps one slot busy until its open times out.
    const [older, newer, stuck] = await createThreads(first, first.server.hostId, ['fake', 'fake', 'stuck']);
    await keepRunning(first, [older!, newer!, stuck!]);
    await first.close({ keepData: true });

    const logs: string[] = [];
    let release!: () => void;
    const restarted = fakeProvider('fake');
    const hanging = fakeProvider('stuck', { openGate: new Promise<void>((resolve) => (release = resolve)) });
    const second = await startTestServer({
      dataDir: first.dataDir,
      config: { hostCommandTimeoutMs: 300 },
      providers: [restarted, hanging],
      log: (message) => logs.push(message),
    });
    try {
      await eventually(() => logs.find((line) => line.startsWith('re-opened')), 'the re-open summary');
      expect(restarted.opened.map((o) => o.threadId)).to.deep.equal([newer!.id, older!.id]);
      expect(logs.join('\n')).to.contain(`could not re-open thread ${stuck!.id}`).and.contain('did not answer thread.open within 300 ms');
      expect(logs.join('\n')).to.contain('re-opened 2 of 3 threads');
    } finally {
      release(); // a daemon waits for agents still starting before it closes
      await second.close();
    }
  });

  it('a remote daemon that restarts on its data dir gets its agent threads re-opened when it says hello again', async () => {
    const t = await startTestServer();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ats-reopen-daemon-'));
    const config = DaemonConfigSchema.parse({
      server: t.server.url,
      token: TEST_TOKEN,
      name: 'remote',
      dataDir,
      reconnectInitialMs: 50,
      reconnectMaxMs: 200,
      storeRetryMs: 50,
    });
    const daemonWith = (provider: ReturnType<typeof fakeProvider>) =>
      startRemoteDaemon({ config, providers: [provider], log: () => undefined });
    try {
      const before = await daemonWith(fakeProvider('fake'));
      await eventually(() => (t.server.hosts.isOnline(before.hostId) ? true : undefined), 'the remote host online');
      const threads = await createThreads(t, before.hostId, ['fake']);
      await keepRunning(t, threads);
      const [thread] = threads;
      await before.close();

      const restarted = fakeProvider('fake');
      const after = await daemonWith(restarted);
      try {
        const reopened = await eventually(
          () => restarted.opened.find((o) => o.threadId === thread!.id),
          'the thread re-opened on the restarted daemon',
        );
        expect(reopened.resumeProviderThreadId).to.equal(`session-${thread!.id}`);
        await t.json(`/threads/${thread!.id}/messages`, { body: { prompt: 'again' } });
        const events = await eventually(async () => {
          const stored = await t.json(`/threads/${thread!.id}/events`);
          return stored.filter((event: { type: string }) => event.type === 'turn/completed').length === 2 ? stored : undefined;
        }, 'the turn on the restarted daemon');
        expect(events[0].data.providerThreadId).to.equal(`session-${thread!.id}`);
        expect(restarted.opened).to.have.length(1);
      } finally {
        await after.close();
      }
    } finally {
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
