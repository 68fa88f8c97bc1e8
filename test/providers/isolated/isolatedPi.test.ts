import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createIsolatedPiProvider } from '../../../src/daemon/providerFactories';
import type { AgentThread } from '../../../src/daemon/providers/agentProvider';
import { scriptByPrompt, startFakeModelServer, type FakeModelServer, type ScriptedReply } from '../../helpers/fakes/modelServer';
import { createFrameLog, isMethod, isSdk, type FrameLog } from '../pi/frameLog';
import {
  createPiSandbox,
  FAKE_CONTEXT_WINDOW,
  FAKE_MODEL,
  TIMER_THROW_EXTENSION,
  type PiSandbox,
  type PiSandboxOptions,
} from '../pi/piSandbox';

const text = (...chunks: string[]): ScriptedReply => ({ kind: 'text', chunks });

const SCRIPTS: Record<string, ScriptedReply[]> = {
  'Say hello': [text('Hello', ' there')],
  'Remember me': [text('Noted.')],
  'Crash while you think': [{ kind: 'slow', chunks: ['Thinking'], rest: [' never.'] }],
  'What did I say': [text('You said remember me.')],
  'Think slowly': [{ kind: 'slow', chunks: ['Thinking'], rest: [' done.'] }],
};

describe("isolated pi provider: each thread's agent in a process of its own (real pi SDK, fake model)", function () {
  this.timeout(60_000);
  let model: FakeModelServer;
  let cleanup: Array<() => Promise<void> | void>;
  let logs: string[];

  const open = async (options: Omit<PiSandboxOptions, 'baseUrl'> & { threadId?: string } = {}) => {
    const sandbox: PiSandbox = createPiSandbox({ baseUrl: model.baseUrl, ...options });
    cleanup.push(() => sandbox.remove());
    const frames: FrameLog = createFrameLog();
    const provider = createIsolatedPiProvider({ agentDir: sandbox.agentDir }, (message) => logs.push(message));
    const thread: AgentThread = await provider.openThread({
      threadId: options.threadId ?? 'thr_iso',
      cwd: sandbox.projectDir,
      model: FAKE_MODEL,
      dataDir: sandbox.dataDir,
      emit: frames.emit,
    });
    cleanup.unshift(() => thread.dispose());
    return { thread, frames, sandbox };
  };

  before(async () => {
    model = await startFakeModelServer(scriptByPrompt(SCRIPTS));
  });
  after(() => model.close());
  beforeEach(() => {
    cleanup = [];
    logs = [];
  });
  afterEach(async () => {
    for (const step of cleanup) await step();
  });

  it('carries the same frames as the in-process provider: started, every SDK event, settled; session id, checkpoint, context window', async () => {
    const { thread, frames } = await open();
    await thread.prompt('Say hello');
    await frames.waitFor(isMethod('pi/prompt/settled'));

    expect(frames.frames[0]!.method).to.equal('pi/prompt/started');
    expect(frames.sdkTypes().slice(-1)).to.deep.equal(['agent_end']);
    expect(frames.frames.at(-1)!.params).to.deep.equal({ threadId: 'thr_iso' });
    expect(frames.frames.find(isSdk('agent_end'))!.params.message!.willRetry).to.equal(false);
    expect(thread.providerThreadId).to.match(/^[0-9a-f-]{36}$/);
    expect(thread.checkpointId?.()).to.match(/^[0-9a-f]{8}$/);
    expect(thread.contextWindow?.()).to.equal(FAKE_CONTEXT_WINDOW);
  });

  it("rejects an unknown model at open with pi's message, without reporting it as a crash", async () => {
    const sandbox = createPiSandbox({ baseUrl: model.baseUrl });
    cleanup.push(() => sandbox.remove());
    const provider = createIsolatedPiProvider({ agentDir: sandbox.agentDir }, (message) => logs.push(message));
    const failure = await provider
      .openThread({ threadId: 'thr_bad', cwd: sandbox.projectDir, model: 'fake/nope', dataDir: sandbox.dataDir, emit: () => undefined })
      .then(
        () => undefined,
        (error: Error) => error,
      );
    expect(failure?.message).to.contain('unknown model "fake/nope"');
    expect(logs.join('\n')).not.to.contain('exited');
  });

  it('stops a streaming run: the aborted agent_end, then settled', async () => {
    const { thread, frames } = await open();
    await thread.prompt('Think slowly');
    await frames.waitFor((frame) => isSdk('message_update')(frame) && frame.params.message!.assistantMessageEvent?.type === 'text_delta');
    await thread.stop();
    await frames.waitFor(isMethod('pi/prompt/settled'));
    const end = frames.frames.find(isSdk('agent_end'))!.params.message!;
    expect(end.messages.at(-1).stopReason).to.equal('aborted');
  });

  it('an extension throwing from its timer ends only that agent: the open prompt settles with the exit reason, and the next prompt runs a fresh agent on the same session', async () => {
    const { thread, frames, sandbox } = await open({ threadId: 'thr_crash', extensions: { 'timer-throw.ts': TIMER_THROW_EXTENSION } });
    await thread.prompt('Remember me');
    await frames.waitFor(isMethod('pi/prompt/settled'));
    const sessionFiles = readdirSync(sandbox.dataDir);
    expect(sessionFiles).to.have.length(1);

    await thread.prompt('Crash while you think');
    const settled = await frames.waitFor((frame) => isMethod('pi/prompt/settled')(frame) && frame.params.error !== undefined);
    expect(settled.params.error!.message).to.equal('the agent process for this thread exited (code 1): Error: extension timer exploded');
    expect(logs.some((line) => line.includes('thr_crash: the agent process for this thread exited (code 1)'))).to.equal(true);
    await thread.stop(); // nothing runs: a no-op, not an error

    const before = frames.frames.length;
    await thread.prompt('What did I say');
    await frames.waitFor((frame) => frames.frames.indexOf(frame) >= before && isMethod('pi/prompt/settled')(frame));
    expect(frames.frames.slice(before).find((frame) => frame.method === 'pi/prompt/settled')!.params.error).to.equal(undefined);
    // Same session file, and the model saw the conversation so far.
    expect(readdirSync(sandbox.dataDir)).to.deep.equal(sessionFiles);
    const lastRequest = model.requests.at(-1)!;
    expect(JSON.stringify(lastRequest.messages)).to.contain('Remember me').and.contain('Noted.');
  });

  it('an agent process killed with SIGKILL mid-run: its prompt settles with "killed (SIGKILL)", and the next prompt answers', async () => {
    const { thread, frames } = await open({ threadId: 'thr_killed' });
    await thread.prompt('Think slowly');
    await frames.waitFor((frame) => isSdk('message_update')(frame) && frame.params.message!.assistantMessageEvent?.type === 'text_delta');
    // This test's only agent process: the child of this process that runs the agent entry.
    const pids = execFileSync('pgrep', ['-P', String(process.pid), '-f', 'agentProcessMain'])
      .toString()
      .trim()
      .split('\n');
    expect(pids).to.have.length(1);
    process.kill(Number(pids[0]), 'SIGKILL');

    const settled = await frames.waitFor(isMethod('pi/prompt/settled'));
    expect(settled.params.error).to.deep.equal({ message: 'the agent process for this thread was killed (SIGKILL)' });
    const before = frames.frames.length;
    await thread.prompt('Say hello');
    await frames.waitFor((frame) => frames.frames.indexOf(frame) >= before && isMethod('pi/prompt/settled')(frame));
    expect(
      frames.frames
        .slice(before)
        .filter(isSdk('message_update'))
        .map((frame) => frame.params.message!.assistantMessageEvent)
        .filter((event) => event.type === 'text_delta')
        .map((event) => event.delta),
    ).to.deep.equal(['Hello', ' there']);
  });

  it('Ctrl+C: an agent ended by the terminal\'s SIGINT as the daemon disposes it is disposed quietly, no "dispose failed" line', async () => {
    const { thread, frames } = await open({ threadId: 'thr_sigint' });
    await thread.prompt('Say hello');
    await frames.waitFor(isMethod('pi/prompt/settled'));
    const [pid] = execFileSync('pgrep', ['-P', String(process.pid), '-f', 'agentProcessMain'])
      .toString()
      .trim()
      .split('\n');
    // The terminal signals the whole process group at once: the agent and the daemon, which then disposes it.
    process.kill(Number(pid), 'SIGINT');
    await thread.dispose();
    expect(logs.filter((line) => line.includes('dispose failed'))).to.deep.equal([]);
  });
});
