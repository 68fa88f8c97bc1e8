import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { startDaemonProcess, type DaemonProcess } from '../helpers/hosts/daemonProcess';
import { scriptByPrompt, startFakeModelServer, type FakeModelServer } from '../helpers/fakes/modelServer';
import { eventually } from '../helpers/server/eventually';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';
import { createPiSandbox, FAKE_MODEL, type PiSandbox } from '../providers/pi/piSandbox';

describe('a thread deleted while its host is offline: gone at once, its session files removed at the host’s next hello (issue 28)', function () {
  let model: FakeModelServer;
  let sandbox: PiSandbox;
  let t: TestServer;
  let daemon: DaemonProcess | undefined;
  let daemonData: string;
  const tempDir = suiteTempDirs();

  before(async () => {
    model = await startFakeModelServer(scriptByPrompt({ 'Remember the word': [{ kind: 'text', chunks: ['PELICAN.'] }] }));
    sandbox = createPiSandbox({ baseUrl: model.baseUrl });
    t = await startTestServer({ config: { embeddedHost: '0' } });
    daemonData = await tempDir('ats-offline-delete-daemon-');
  });
  after(async () => {
    await daemon?.kill('SIGTERM');
    await t?.close();
    await model?.close();
    sandbox?.remove();
  });

  const runDaemon = () =>
    startDaemonProcess(['--server', t.server.url, '--token', TEST_TOKEN, '--name', 'away', '--data-dir', daemonData], {
      via: 'node',
      env: { PI_CODING_AGENT_DIR: sandbox.agentDir },
    });
  const online = (hostId: string, wanted: boolean) =>
    eventually(
      async () => {
        const response = await t.api(`/hosts/${hostId}`);
        return response.status === 200 && (await response.json()).online === wanted ? true : undefined;
      },
      `host online: ${wanted}`,
      30_000,
    );
  const sessionFiles = (session: string) =>
    readdirSync(path.join(daemonData, 'providers', 'pi')).filter((name) => name.endsWith(`_${session}.jsonl`));

  it('answers 204 and 404 after while the host is away; the host removes the session at its hello, and the tombstone goes', async () => {
    daemon = await runDaemon();
    await online(daemon.hostId, true);
    const project = await t.json('/projects', {
      body: { name: 'p', source: { type: 'local_path', path: sandbox.projectDir, hostId: daemon.hostId } },
    });
    const thread = await t.json('/threads', {
      body: { projectId: project.id, provider: 'pi', model: FAKE_MODEL, title: 'away', prompt: 'Remember the word' },
    });
    const session = await eventually(
      async () => {
        const events: { type: string; data: { providerThreadId?: string } }[] = await t.json(`/threads/${thread.id}/events`);
        return events.find((event) => event.type === 'turn/completed')?.data.providerThreadId;
      },
      'the first turn',
      60_000,
    );
    expect(sessionFiles(session)).to.have.length(1);

    await daemon.kill('SIGTERM');
    await online(daemon.hostId, false);
    expect((await t.api(`/threads/${thread.id}`, { method: 'DELETE' })).status).to.equal(204);
    expect((await t.api(`/threads/${thread.id}`)).status).to.equal(404);
    expect((await t.api(`/threads/${thread.id}/events`)).status).to.equal(404);
    expect(await t.server.store.lastSeq(thread.id)).to.equal(0);
    expect(sessionFiles(session)).to.have.length(1); // nobody there to remove them yet
    expect((await t.server.registry.threads.deleting()).map((record) => record.id)).to.deep.equal([thread.id]);

    daemon = await runDaemon();
    await eventually(async () => (sessionFiles(session).length === 0 ? true : undefined), 'the session files removed by the host', 30_000);
    await eventually(
      async () => ((await t.server.registry.threads.deleting()).length === 0 ? true : undefined),
      'the tombstone removed',
      30_000,
    );
    expect((await t.api(`/threads/${thread.id}`)).status).to.equal(404);
  });
});
