import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { scriptByPrompt, startFakeModelServer, type FakeModelServer, type ScriptedReply } from '../../helpers/fakes/modelServer';
import { createAskRecorder } from './askRecorder';
import { isMethod, isSdk, type Frame, type FrameLog } from './frameLog';
import { openTestThread } from './openTestThread';

const text = (...chunks: string[]): ScriptedReply => ({ kind: 'text', chunks });
const tool = (toolName: string, args: Record<string, unknown>, callId?: string): ScriptedReply => ({
  kind: 'toolCall',
  toolName,
  args,
  callId,
});

const SCRIPTS: Record<string, ScriptedReply[]> = {
  'Run echo': [tool('bash', { command: 'echo from-bash > ran.txt; echo done' }), text('Ran it.')],
  'Run twice': [
    tool('bash', { command: 'echo one >> ran.txt' }, 'call_1'),
    tool('bash', { command: 'echo two >> ran.txt' }, 'call_2'),
    text('Both ran.'),
  ],
  'Edit notes': [tool('edit', { path: 'notes.txt', edits: [{ oldText: 'first line', newText: 'line one' }] }), text('Edited.')],
  'Write a file': [tool('write', { path: 'sub/new.txt', content: 'hello\nworld\n' }), text('Written.')],
  'Read notes': [tool('read', { path: 'notes.txt' }), text('Read it.')],
  'Think about running': [{ kind: 'slow', chunks: ['Thinking'], rest: [' done.'] }],
};

const toolEnd = (frames: FrameLog) => frames.frames.find(isSdk('tool_execution_end'))!.params.message!;
const toolOutput = (end: Frame['params']['message']) => (end!.result.content as Array<{ text: string }>).map((part) => part.text).join('');
const settledCount = (frames: FrameLog, count: number) => (frame: Frame) =>
  isMethod('pi/prompt/settled')(frame) && frames.frames.filter(isMethod('pi/prompt/settled')).length === count;
const lastAnswer = (frames: FrameLog) => {
  const messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> = frames.frames
    .filter(isSdk('agent_end'))
    .at(-1)!.params.message!.messages;
  return messages
    .filter((message) => message.role === 'assistant')
    .at(-1)!
    .content.map((part) => part.text ?? '')
    .join('');
};

describe('pi provider: permission modes and approvals (real pi SDK, fake model)', function () {
  let server: FakeModelServer;
  let cleanup: Array<() => Promise<void> | void>;

  before(async () => {
    server = await startFakeModelServer(scriptByPrompt(SCRIPTS));
  });
  after(() => server.close());
  beforeEach(() => {
    cleanup = [];
  });
  afterEach(async () => {
    for (const step of cleanup) await step();
  });

  it('ask: a bash call waits for the answer; allowed once, the command runs and its output is in the tool frames', async () => {
    const asks = createAskRecorder();
    const { thread, frames, sandbox } = await openTestThread(
      { baseUrl: server.baseUrl, permissionMode: 'ask', askUser: asks.askUser },
      cleanup,
    );
    await thread.prompt('Run echo');
    const asked = await asks.question(0);

    const start = frames.frames.find(isSdk('tool_execution_start'))!.params.message!;
    expect(asked.question.subject).to.deep.equal({
      kind: 'execute',
      title: 'echo from-bash > ran.txt; echo done',
      toolCallId: start.toolCallId,
      command: 'echo from-bash > ran.txt; echo done',
      paths: [],
    });
    expect(asked.question.options.map((option) => option.kind)).to.deep.equal(['allow_once', 'allow_always', 'reject_once']);
    expect(frames.frames.some(isSdk('tool_execution_end'))).to.equal(false);
    expect(existsSync(path.join(sandbox.projectDir, 'ran.txt'))).to.equal(false);

    asked.choose('allow_once');
    await frames.waitFor(isMethod('pi/prompt/settled'));
    expect(toolEnd(frames)).to.include({ isError: false, toolCallId: start.toolCallId });
    expect(toolOutput(toolEnd(frames))).to.equal('done\n');
    expect(readFileSync(path.join(sandbox.projectDir, 'ran.txt'), 'utf8')).to.equal('from-bash\n');
    expect(lastAnswer(frames)).to.equal('Ran it.');
  });

  it('ask: a rejected call does not run; the model gets the reason as the tool result and the turn completes', async () => {
    const asks = createAskRecorder();
    const { thread, frames, sandbox } = await openTestThread(
      { baseUrl: server.baseUrl, permissionMode: 'ask', askUser: asks.askUser },
      cleanup,
    );
    await thread.prompt('Run echo');
    (await asks.question(0)).choose('reject_once');
    const settled = await frames.waitFor(isMethod('pi/prompt/settled'));

    expect(settled.params.error).to.equal(undefined);
    expect(existsSync(path.join(sandbox.projectDir, 'ran.txt'))).to.equal(false);
    const reason = toolOutput(toolEnd(frames));
    expect(toolEnd(frames).isError).to.equal(true);
    expect(reason).to.equal('The user rejected this bash call.');
    expect(JSON.stringify(server.requests.at(-1)!.messages)).to.contain(reason);
    expect(lastAnswer(frames)).to.equal('Ran it.');
  });

  it('ask: "allow always" lets the same tool run again in this thread without asking', async () => {
    const asks = createAskRecorder();
    const { thread, frames, sandbox } = await openTestThread(
      { baseUrl: server.baseUrl, permissionMode: 'ask', askUser: asks.askUser },
      cleanup,
    );
    await thread.prompt('Run twice');
    (await asks.question(0)).choose('allow_always');
    await frames.waitFor(isMethod('pi/prompt/settled'));

    expect(asks.questions).to.have.length(1);
    expect(readFileSync(path.join(sandbox.projectDir, 'ran.txt'), 'utf8')).to.equal('one\ntwo\n');
    await thread.prompt('Run echo');
    await frames.waitFor(settledCount(frames, 2));
    expect(asks.questions).to.have.length(1);
  });

  it('ask: an edit asks with the absolute path and a diff; a write with the new content; a read runs without asking', async () => {
    const asks = createAskRecorder();
    const { thread, frames, sandbox } = await openTestThread(
      { baseUrl: server.baseUrl, permissionMode: 'ask', askUser: asks.askUser },
      cleanup,
    );
    await thread.prompt('Read notes');
    await frames.waitFor(isMethod('pi/prompt/settled'));
    expect(asks.questions).to.have.length(0);

    await thread.prompt('Edit notes');
    const edit = await asks.question(0);
    const notes = path.join(sandbox.projectDir, 'notes.txt');
    expect(edit.question.subject).to.deep.include({ kind: 'edit', title: `Edit ${notes}`, paths: [notes] });
    expect(edit.question.subject.diff).to.equal(`--- ${notes}\n+++ ${notes}\n-first line\n+line one`);
    edit.choose('allow_once');
    await frames.waitFor(settledCount(frames, 2));
    expect(readFileSync(notes, 'utf8')).to.equal('line one\nsecond line\n');

    await thread.prompt('Write a file');
    const write = await asks.question(1);
    const created = path.join(sandbox.projectDir, 'sub', 'new.txt');
    expect(write.question.subject).to.deep.include({ kind: 'edit', title: `Write ${created}`, paths: [created] });
    expect(write.question.subject.diff).to.equal(`--- /dev/null\n+++ ${created}\n+hello\n+world`);
    write.choose('reject_once');
    await frames.waitFor(settledCount(frames, 3));
    expect(existsSync(created)).to.equal(false);
  });

  for (const mode of ['accept-edits', 'full-access'] as const) {
    it(`${mode}: pi asks nothing; commands and edits run as they always did`, async () => {
      const asks = createAskRecorder();
      const { thread, frames, sandbox } = await openTestThread(
        { baseUrl: server.baseUrl, permissionMode: mode, askUser: asks.askUser },
        cleanup,
      );
      await thread.prompt('Run echo');
      await frames.waitFor(isMethod('pi/prompt/settled'));
      await thread.prompt('Edit notes');
      await frames.waitFor(settledCount(frames, 2));

      expect(asks.questions).to.have.length(0);
      expect(readFileSync(path.join(sandbox.projectDir, 'ran.txt'), 'utf8')).to.equal('from-bash\n');
      expect(readFileSync(path.join(sandbox.projectDir, 'notes.txt'), 'utf8')).to.equal('line one\nsecond line\n');
    });
  }

  it("setPermissionMode('ask') on an open accept-edits thread makes its next tool call ask", async () => {
    const asks = createAskRecorder();
    const { thread, frames } = await openTestThread({ baseUrl: server.baseUrl, askUser: asks.askUser }, cleanup);
    await thread.prompt('Run echo');
    await frames.waitFor(isMethod('pi/prompt/settled'));
    expect(asks.questions).to.have.length(0);

    await thread.setPermissionMode!('ask');
    await thread.prompt('Run echo');
    (await asks.question(0)).choose('allow_once');
    await frames.waitFor(settledCount(frames, 2));
    expect(asks.questions).to.have.length(1);
  });

  it('ask: a stop while a question is open aborts its signal, blocks the call and ends the run', async () => {
    const asks = createAskRecorder();
    const { thread, frames, sandbox } = await openTestThread(
      { baseUrl: server.baseUrl, permissionMode: 'ask', askUser: asks.askUser },
      cleanup,
    );
    await thread.prompt('Run echo');
    const asked = await asks.question(0);
    await thread.stop();
    await asked.aborted;
    await frames.waitFor(isMethod('pi/prompt/settled'));
    expect(existsSync(path.join(sandbox.projectDir, 'ran.txt'))).to.equal(false);
  });

  it('ask without anyone to answer (no askUser): every call that would ask is refused, the turn completes', async () => {
    const { thread, frames, sandbox } = await openTestThread({ baseUrl: server.baseUrl, permissionMode: 'ask' }, cleanup);
    await thread.prompt('Run echo');
    await frames.waitFor(isMethod('pi/prompt/settled'));
    expect(toolEnd(frames).isError).to.equal(true);
    expect(toolOutput(toolEnd(frames))).to.contain('No one approved this bash call');
    expect(existsSync(path.join(sandbox.projectDir, 'ran.txt'))).to.equal(false);
  });
});
