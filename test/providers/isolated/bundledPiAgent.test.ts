import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createIsolatedPiProvider } from '../../../src/daemon/providerFactories';
import type { AgentThread } from '../../../src/daemon/providers/agentProvider';
import { scriptByPrompt, startFakeModelServer, type FakeModelServer } from '../../helpers/fakes/modelServer';
import { createFrameLog, isMethod, isSdk, type FrameLog } from '../pi/frameLog';
import { createPiSandbox, FAKE_MODEL, TIMER_THROW_EXTENSION, type PiSandbox, type PiSandboxOptions } from '../pi/piSandbox';

const REPO = path.resolve(__dirname, '..', '..', '..');
const BUNDLE = path.join(REPO, 'dist', 'node', 'agents', 'pi-agent.mjs');
const PI_VERSION = (
  JSON.parse(readFileSync(path.join(REPO, 'node_modules', '@mariozechner', 'pi-coding-agent', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

/** A TypeScript extension importing pi's SDK and typebox, as published pi extensions do (jiti loads it). */
const SDK_IMPORTING_EXTENSION = `
import { Type } from 'typebox';
import { VERSION } from '@mariozechner/pi-coding-agent';

export default function (pi) {
  const Report = Type.Object({ version: Type.String(), schema: Type.String() });
  pi.on('session_start', async () => {
    const content = 'extension saw pi ' + VERSION + ' and ' + Object.keys(Report.properties).join('+');
    pi.sendMessage({ customType: 'sdk-check', content, display: true }, { triggerTurn: false });
  });
}
`;

describe('the bundled pi agent process (what `npm start` forks): same behaviour as the unbundled one', function () {
  this.timeout(60_000);
  let model: FakeModelServer;
  let cleanup: Array<() => Promise<void> | void>;
  let logs: string[];

  const open = async (options: Omit<PiSandboxOptions, 'baseUrl'> & { threadId: string }) => {
    const sandbox: PiSandbox = createPiSandbox({ baseUrl: model.baseUrl, ...options });
    cleanup.push(() => sandbox.remove());
    const frames: FrameLog = createFrameLog();
    const provider = createIsolatedPiProvider({ agentDir: sandbox.agentDir }, (message) => logs.push(message), BUNDLE);
    const thread: AgentThread = await provider.openThread({
      threadId: options.threadId,
      cwd: sandbox.projectDir,
      model: FAKE_MODEL,
      dataDir: sandbox.dataDir,
      emit: frames.emit,
    });
    cleanup.unshift(() => thread.dispose());
    return { thread, frames, sandbox };
  };

  before(async function () {
    this.timeout(600_000); // builds the server and the bundle when they are older than the sources
    execFileSync(process.execPath, [path.join(REPO, 'src', 'build', 'ensureBuilt.mjs')], { cwd: REPO, stdio: 'ignore' });
    expect(existsSync(BUNDLE), 'the build wrote the bundle').to.equal(true);
    model = await startFakeModelServer(
      scriptByPrompt({
        'Say hello': [{ kind: 'text', chunks: ['Hello', ' there'] }],
        'Remember me': [{ kind: 'text', chunks: ['Noted.'] }],
        'Crash while you think': [{ kind: 'slow', chunks: ['Thinking'], rest: [' never.'] }],
        'What did I say': [{ kind: 'text', chunks: ['You said remember me.'] }],
      }),
    );
  });
  after(() => model?.close());
  beforeEach(() => {
    cleanup = [];
    logs = [];
  });
  afterEach(async () => {
    for (const step of cleanup) await step();
  });

  it("runs a turn in a process of the bundle: started, the model's answer, settled", async () => {
    const { thread, frames } = await open({ threadId: 'thr_bundle' });
    const agents = execFileSync('pgrep', ['-P', String(process.pid), '-f', 'pi-agent.mjs'])
      .toString()
      .trim()
      .split('\n');
    expect(agents).to.have.length(1);

    await thread.prompt('Say hello');
    await frames.waitFor(isMethod('pi/prompt/settled'));
    expect(frames.frames[0]!.method).to.equal('pi/prompt/started');
    const deltas = frames.frames
      .filter(isSdk('message_update'))
      .map((frame) => frame.params.message!.assistantMessageEvent)
      .filter((event) => event.type === 'text_delta')
      .map((event) => event.delta);
    expect(deltas).to.deep.equal(['Hello', ' there']);
    expect(frames.frames.at(-1)!.params).to.deep.equal({ threadId: 'thr_bundle' });
    expect(thread.providerThreadId).to.match(/^[0-9a-f-]{36}$/);
  });

  it("loads a project's TypeScript extension that imports pi's SDK and typebox", async function () {
    // jiti compiles the extension and loads pi's SDK unbundled for it (~1,000 modules): slow on a loaded machine.
    this.timeout(180_000);
    const { frames } = await open({ threadId: 'thr_ext', extensions: { 'sdk-check.ts': SDK_IMPORTING_EXTENSION } });
    await frames.waitFor((frame) => JSON.stringify(frame).includes('extension saw pi'));
    expect(JSON.stringify(frames.frames)).to.contain(`extension saw pi ${PI_VERSION} and version+schema`);
    expect(logs.join('\n')).not.to.contain('not loaded');
  });

  it('an extension throwing from its timer ends only that agent; the next prompt continues the same session', async () => {
    const { thread, frames, sandbox } = await open({ threadId: 'thr_crash', extensions: { 'timer-throw.ts': TIMER_THROW_EXTENSION } });
    await thread.prompt('Remember me');
    await frames.waitFor(isMethod('pi/prompt/settled'));
    const sessionFiles = readdirSync(sandbox.dataDir);

    await thread.prompt('Crash while you think');
    const settled = await frames.waitFor((frame) => isMethod('pi/prompt/settled')(frame) && frame.params.error !== undefined);
    expect(settled.params.error!.message).to.equal('the agent process for this thread exited (code 1): Error: extension timer exploded');

    const before = frames.frames.length;
    await thread.prompt('What did I say');
    await frames.waitFor((frame) => frames.frames.indexOf(frame) >= before && isMethod('pi/prompt/settled')(frame));
    expect(readdirSync(sandbox.dataDir)).to.deep.equal(sessionFiles);
    expect(JSON.stringify(model.requests.at(-1)!.messages))
      .to.contain('Remember me')
      .and.contain('Noted.');
  });
});
