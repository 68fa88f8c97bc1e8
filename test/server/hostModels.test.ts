import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { createIsolatedPiProvider } from '../../src/daemon/providerFactories';
import { createPiProvider } from '../../src/daemon/providers/pi';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../src/protocol/protocolVersion';
import { scriptByPrompt, startFakeModelServer, type FakeModelServer } from '../helpers/fakes/modelServer';
import { eventually } from '../helpers/server/eventually';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server/harness';
import { createPiSandbox, FAKE_CONTEXT_WINDOW, FAKE_MODEL, type PiSandbox } from '../providers/pi/piSandbox';
import { linkFrames } from '../helpers/hosts/linkFrames';

describe('server: a host’s model catalog and folders for the page (GET /hosts/:id/models, /directories)', function () {
  this.timeout(60_000);
  let model: FakeModelServer;
  let sandbox: PiSandbox;
  let t: TestServer;
  const logs: string[] = [];

  before(async () => {
    model = await startFakeModelServer(scriptByPrompt({ 'Say hi': [{ kind: 'text', chunks: ['Hi ', 'there.'] }] }));
    sandbox = createPiSandbox({ baseUrl: model.baseUrl });
    t = await startTestServer({ providers: [createPiProvider({ agentDir: sandbox.agentDir, log: (line) => logs.push(line) })] });
  });
  after(async () => {
    await t?.close();
    await model?.close();
    sandbox?.remove();
  });

  it('lists pi’s models from the agent dir, and a thread runs on the one picked from the list', async () => {
    const { models, errors } = await t.json(`/hosts/${t.server.hostId}/models`);
    expect(errors).to.deep.equal([]);
    const fake = models.find((m: { model: string }) => m.model === FAKE_MODEL);
    expect(fake).to.deep.include({
      provider: 'pi',
      model: FAKE_MODEL,
      name: 'Fake model',
      contextWindow: FAKE_CONTEXT_WINDOW,
      maxTokens: 4096,
      available: true,
    });
    expect(models.length).to.be.greaterThan(1); // pi's built-in models come along, marked by whether a key is configured
    expect(models.every((m: { provider: string; available: unknown }) => m.provider === 'pi' && typeof m.available === 'boolean')).to.equal(
      true,
    );
    // Usable first (issue 29): the picker opens on a model this host can run, not on one without a key.
    const usable = models.map((m: { available: boolean }) => m.available);
    expect(usable[0]).to.equal(true);
    expect(usable.indexOf(false)).to.be.greaterThan(usable.lastIndexOf(true));

    const project = await t.json('/projects', {
      body: { name: 'models', source: { type: 'local_path', path: sandbox.projectDir, hostId: t.server.hostId } },
    });
    const thread = await t.json('/threads', {
      body: { projectId: project.id, provider: fake.provider, model: fake.model, title: 'picked', prompt: 'Say hi' },
    });
    const rows = await eventually(async () => {
      const page = await t.json(`/threads/${thread.id}/events?limit=1000`);
      return page.some((row: { type: string }) => row.type === 'turn/completed') ? page : undefined;
    }, 'the turn on the picked model');
    expect(rows.find((row: { type: string }) => row.type === 'turn/completed').data.status).to.equal('completed');
    // What the user sent is in the log, in Codex's shape, before the answer (the real pi SDK reports it).
    const items = rows
      .filter((row: { type: string }) => row.type === 'item/completed')
      .map((row: { data: { item: unknown } }) => row.data.item);
    expect(items.map((item: { type: string }) => item.type)).to.deep.equal(['userMessage', 'agentMessage']);
    expect(items[0]).to.deep.include({ content: [{ type: 'text', text: 'Say hi' }] });
    expect(items[1]).to.deep.include({ text: 'Hi there.' });
  });

  it('filters by agent provider, and names a catalog that cannot be read instead of failing', async () => {
    expect(await t.json(`/hosts/${t.server.hostId}/models?provider=other`)).to.deep.equal({ models: [], errors: [] });
    const file = path.join(sandbox.agentDir, 'models.json');
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, '{ not json');
    try {
      const broken = await t.json(`/hosts/${t.server.hostId}/models`);
      expect(broken.models).to.deep.equal([]);
      expect(broken.errors).to.have.length(1);
      expect(broken.errors[0].provider).to.equal('pi');
      expect(broken.errors[0].message).to.contain('models.json');
    } finally {
      writeFileSync(file, good);
    }
  });

  it('answers 404 for an unknown host and 400 for an unknown query parameter', async () => {
    const unknown = await t.api('/hosts/host_nope/models');
    expect(unknown.status).to.equal(404);
    expect(((await unknown.json()) as any).code).to.equal('host_not_found');
    const bad = await t.api(`/hosts/${t.server.hostId}/models?color=red`);
    expect(bad.status).to.equal(400);
  });

  it('an older daemon without host.list_models gets 501 host_command_unsupported, not a host error', async () => {
    const hostId = 'host_olddaemon';
    const socket = new WebSocket(`${t.server.url.replace('http', 'ws')}/api/v1/daemon`, {
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.on('message', (data) => {
      // The daemon of an earlier release: it answers every request it does not know with method-not-found.
      for (const message of linkFrames(data))
        if (message.method)
          socket.send(
            JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `unknown method ${message.method}` } }),
          );
    });
    socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'hello',
        method: 'link.hello',
        params: { protocolVersion: HOST_DAEMON_PROTOCOL_VERSION, hostId, name: 'old', platform: 'linux', providers: ['pi'] },
      }),
    );
    try {
      await eventually(
        async () => ((await t.json(`/hosts/${hostId}`).catch(() => undefined))?.online ? true : undefined),
        'the old daemon online',
      );
      const response = await t.api(`/hosts/${hostId}/models`);
      expect(response.status).to.equal(501);
      expect(((await response.json()) as any).code).to.equal('host_command_unsupported');
    } finally {
      socket.close();
    }
  });

  it('lists one level of a folder for the folder picker', async () => {
    const listing = await t.json(`/hosts/${t.server.hostId}/directories?path=${encodeURIComponent(sandbox.projectDir)}`);
    expect(listing.path).to.equal(sandbox.projectDir);
    expect(listing.entries).to.deep.include({ kind: 'file', name: 'notes.txt', path: path.join(sandbox.projectDir, 'notes.txt') });
    const relative = await t.api(`/hosts/${t.server.hostId}/directories?path=relative/dir`);
    expect(relative.status).to.equal(400);
    expect((await t.json(`/hosts/${t.server.hostId}/directories`)).path).to.equal('/');
  });

  it('the isolated pi provider lists the same catalog without starting an agent process', async () => {
    const isolated = createIsolatedPiProvider({ agentDir: sandbox.agentDir }, () => {});
    const models = await isolated.listModels!();
    expect(models.map((m) => m.model)).to.include(FAKE_MODEL);
  });
});
