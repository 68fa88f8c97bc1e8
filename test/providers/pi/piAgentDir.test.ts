import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPiProvider } from '../../../src/daemon/providers/pi';
import { scriptByPrompt, startFakeModelServer, type FakeModelServer } from '../../helpers/fakes/modelServer';
import { createFrameLog, isMethod } from './frameLog';
import { createPiSandbox, FAKE_CONTEXT_WINDOW, FAKE_MODEL, type PiSandbox } from './piSandbox';

const AGENT_DIR_ENV = 'PI_CODING_AGENT_DIR';

/** pi's own override of its agent dir; the provider must honour it whenever no `agentDir` is passed. */
describe('pi provider: PI_CODING_AGENT_DIR names the agent dir when no agentDir is given', function () {
  let model: FakeModelServer;
  let sandbox: PiSandbox;
  let emptyDir: string;
  let saved: string | undefined;

  before(async () => {
    model = await startFakeModelServer(scriptByPrompt({ 'Say hello': [{ kind: 'text', chunks: ['Hello'] }] }));
    sandbox = createPiSandbox({ baseUrl: model.baseUrl });
    // auth.json wins over models.json's `apiKey` in pi, so the key the model sees tells which file was read.
    writeFileSync(path.join(sandbox.agentDir, 'auth.json'), JSON.stringify({ fake: { type: 'api_key', key: 'key-from-auth-json' } }));
    emptyDir = mkdtempSync(path.join(tmpdir(), 'pi-empty-agent-'));
    saved = process.env[AGENT_DIR_ENV];
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[AGENT_DIR_ENV];
    else process.env[AGENT_DIR_ENV] = saved;
  });
  after(async () => {
    await model.close();
    sandbox.remove();
    rmSync(emptyDir, { recursive: true, force: true });
  });

  const open = (threadId: string, frames = createFrameLog()) =>
    createPiProvider({ log: () => undefined }).openThread({
      threadId,
      cwd: sandbox.projectDir,
      model: FAKE_MODEL,
      dataDir: sandbox.dataDir,
      emit: frames.emit,
    });

  it('reads models.json and auth.json from that dir: the model is found and called with the auth.json key', async () => {
    process.env[AGENT_DIR_ENV] = sandbox.agentDir;
    const frames = createFrameLog();
    const thread = await open('thr_env_dir', frames);
    try {
      expect(thread.contextWindow?.()).to.equal(FAKE_CONTEXT_WINDOW); // from models.json in that dir
      await thread.prompt('Say hello');
      await frames.waitFor(isMethod('pi/prompt/settled'));
      expect(model.authorizations.at(-1)).to.equal('Bearer key-from-auth-json');
    } finally {
      await thread.dispose();
    }
  });

  it('a dir without that model is where pi looked: opening fails naming its models.json', async () => {
    process.env[AGENT_DIR_ENV] = emptyDir;
    const error = await open('thr_empty_dir').then(
      () => undefined,
      (failure: unknown) => failure as Error,
    );
    expect(error?.message).to.contain(`unknown model "${FAKE_MODEL}"`).and.contain(path.join(emptyDir, 'models.json'));
  });
});
