import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createIsolatedPiProvider } from '../../../src/daemon/providerFactories';
import type { AgentThread } from '../../../src/daemon/providers/agentProvider';
import type { PermissionMode } from '../../../src/protocol/approvals';
import { scriptByPrompt, startFakeModelServer, type FakeModelServer, type ScriptedReply } from '../../helpers/fakes/modelServer';
import { createAskRecorder, type AskRecorder } from '../pi/askRecorder';
import { createFrameLog, isMethod, isSdk, type Frame, type FrameLog } from '../pi/frameLog';
import { createPiSandbox, FAKE_MODEL, type PiSandbox } from '../pi/piSandbox';

const text = (...chunks: string[]): ScriptedReply => ({ kind: 'text', chunks });
const bash = (command: string, callId?: string): ScriptedReply => ({ kind: 'toolCall', toolName: 'bash', args: { command }, callId });

const SCRIPTS: Record<string, ScriptedReply[]> = {
  'Run echo': [bash('echo from-bash >> ran.txt; echo done'), text('Ran it.')],
  'Run twice': [bash('echo one >> ran.txt', 'call_1'), bash('echo two >> ran.txt', 'call_2'), text('Both ran.')],
};

const settledCount = (frames: FrameLog, count: number) => (frame: Frame) =>
  isMethod('pi/prompt/settled')(frame) && frames.frames.filter(isMethod('pi/prompt/settled')).length === count;
const toolEnds = (frames: FrameLog) => frames.frames.filter(isSdk('tool_execution_end')).map((frame) => frame.params.message!);
const outputOf = (end: Record<string, any>) => (end.result.content as Array<{ text: string }>).map((part) => part.text).join('');

describe("isolated pi provider: approvals across the agent's process (real pi SDK, fake model)", function () {
  this.timeout(60_000);
  let model: FakeModelServer;
  let cleanup: Array<() => Promise<void> | void>;

  const open = async (permissionMode: PermissionMode) => {
    const sandbox: PiSandbox = createPiSandbox({ baseUrl: model.baseUrl });
    cleanup.push(() => sandbox.remove());
    const frames = createFrameLog();
    const asks: AskRecorder = createAskRecorder();
    const provider = createIsolatedPiProvider({ agentDir: sandbox.agentDir }, () => undefined);
    const thread: AgentThread = await provider.openThread({
      threadId: 'thr_iso_ask',
      cwd: sandbox.projectDir,
      model: FAKE_MODEL,
      permissionMode,
      askUser: asks.askUser,
      dataDir: sandbox.dataDir,
      emit: frames.emit,
    });
    cleanup.unshift(() => thread.dispose());
    const ran = () =>
      existsSync(path.join(sandbox.projectDir, 'ran.txt')) ? readFileSync(path.join(sandbox.projectDir, 'ran.txt'), 'utf8') : '';
    return { thread, frames, asks, ran };
  };

  before(async () => {
    model = await startFakeModelServer(scriptByPrompt(SCRIPTS));
  });
  after(() => model.close());
  beforeEach(() => {
    cleanup = [];
  });
  afterEach(async () => {
    for (const step of cleanup) await step();
  });

  it('ask: the question reaches the daemon with its subject and options; allowed, the command runs and its output is in the frames', async () => {
    const { thread, frames, asks, ran } = await open('ask');
    await thread.prompt('Run echo');
    const asked = await asks.question(0);
    expect(asked.question.subject).to.deep.include({ kind: 'execute', command: 'echo from-bash >> ran.txt; echo done' });
    expect(asked.question.options.map((option) => option.kind)).to.deep.equal(['allow_once', 'allow_always', 'reject_once']);
    expect(ran()).to.equal('');

    asked.choose('allow_once');
    await frames.waitFor(isMethod('pi/prompt/settled'));
    expect(toolEnds(frames).map(outputOf)).to.deep.equal(['done\n']);
    expect(ran()).to.equal('from-bash\n');
  });

  it('ask: a rejected call is blocked with the reason the model reads, and the turn completes', async () => {
    const { thread, frames, asks, ran } = await open('ask');
    await thread.prompt('Run echo');
    (await asks.question(0)).choose('reject_once');
    const settled = await frames.waitFor(isMethod('pi/prompt/settled'));
    expect(settled.params.error).to.equal(undefined);
    expect(toolEnds(frames).map((end) => [end.isError, outputOf(end)])).to.deep.equal([[true, 'The user rejected this bash call.']]);
    expect(JSON.stringify(model.requests.at(-1)!.messages)).to.contain('The user rejected this bash call.');
    expect(ran()).to.equal('');
  });

  it('ask: a stop while a question is open cancels it in the daemon too (its signal aborts) and ends the run', async () => {
    const { thread, frames, asks, ran } = await open('ask');
    await thread.prompt('Run echo');
    const asked = await asks.question(0);
    await thread.stop();
    await asked.aborted;
    await frames.waitFor(isMethod('pi/prompt/settled'));
    expect(ran()).to.equal('');
  });

  it('ask: "allow always" holds for the rest of the thread, so the second bash call does not ask', async () => {
    const { thread, frames, asks, ran } = await open('ask');
    await thread.prompt('Run twice');
    (await asks.question(0)).choose('allow_always');
    await frames.waitFor(isMethod('pi/prompt/settled'));
    expect(asks.questions).to.have.length(1);
    expect(ran()).to.equal('one\ntwo\n');
  });

  it("accept-edits asks nothing; setPermissionMode('ask') makes the next tool call ask", async () => {
    const { thread, frames, asks, ran } = await open('accept-edits');
    await thread.prompt('Run echo');
    await frames.waitFor(isMethod('pi/prompt/settled'));
    expect(asks.questions).to.have.length(0);
    expect(ran()).to.equal('from-bash\n');

    await thread.setPermissionMode!('ask');
    await thread.prompt('Run echo');
    (await asks.question(0)).choose('allow_once');
    await frames.waitFor(settledCount(frames, 2));
    expect(ran()).to.equal('from-bash\nfrom-bash\n');
  });

  it("the agent process dying with a question open aborts the question's signal; the fresh agent keeps the thread's mode", async () => {
    const { thread, frames, asks, ran } = await open('accept-edits');
    await thread.setPermissionMode!('ask');
    await thread.prompt('Run echo');
    const asked = await asks.question(0);
    const pids = execFileSync('pgrep', ['-P', String(process.pid), '-f', 'agentProcessMain'])
      .toString()
      .trim()
      .split('\n');
    expect(pids).to.have.length(1);
    process.kill(Number(pids[0]), 'SIGKILL');

    await asked.aborted;
    const settled = await frames.waitFor(isMethod('pi/prompt/settled'));
    expect(settled.params.error).to.deep.equal({ message: 'the agent process for this thread was killed (SIGKILL)' });
    expect(ran()).to.equal('');

    await thread.prompt('Run echo');
    (await asks.question(1)).choose('allow_once');
    await frames.waitFor(settledCount(frames, 2));
    expect(ran()).to.equal('from-bash\n');
  });
});
