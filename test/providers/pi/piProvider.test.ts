import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createPiProvider } from '../../../src/daemon/providers/pi';
import { ensurePiOffline } from '../../../src/daemon/providers/pi/offlineSafety';
import { scriptByPrompt, startFakeModelServer, type FakeModelServer, type ScriptedReply } from '../../helpers/fakes/modelServer';
import { isMethod, isSdk, type Frame } from './frameLog';
import { openTestThread } from './openTestThread';
import { createPiSandbox, FAKE_CONTEXT_WINDOW, FAKE_MODEL, SLOW_AGENT_END_EXTENSION, TRIGGER_EXTENSION } from './piSandbox';

const text = (...chunks: string[]): ScriptedReply => ({ kind: 'text', chunks });

const SCRIPTS: Record<string, ScriptedReply[]> = {
  'Say hello': [text('Hello', ' there')],
  'Run echo': [{ kind: 'toolCall', toolName: 'bash', args: { command: 'echo from-bash > ran.txt; echo done' } }, text('Ran it.')],
  'Fail please': [{ kind: 'httpError', status: 400, message: 'refused by the fake model' }],
  'Think slowly': [{ kind: 'slow', chunks: ['Thinking'], rest: [' done.'] }],
  'Also this': [text('Follow-up answered.')],
  'Cut me off': [{ kind: 'once', first: { kind: 'cut', chunks: ['Part'] }, then: text('Second try.') }],
  'Check the build': [text('Checked by the agent.')],
  'Remember me': [text('Noted.')],
  'What did I say': [text('You said remember me.')],
};

const methodsOf = (frames: Frame[]) => frames.map((frame) => (frame.method === 'sdk/message' ? frame.params.message!.type : frame.method));
const lastAssistantOf = (frame: Frame) => {
  const messages: Array<{ role: string; stopReason?: string; errorMessage?: string }> = frame.params.message!.messages;
  return messages.filter((message) => message.role === 'assistant').pop()!;
};

describe('pi provider (real pi SDK, fake model)', function () {
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

  it('brackets a client turn: prompt/started first, every SDK event as sdk/message, prompt/settled after agent_end', async () => {
    const { thread, frames } = await openTestThread({ baseUrl: server.baseUrl, threadId: 'thr_text' }, cleanup);
    await thread.prompt('Say hello');
    await frames.waitFor(isMethod('pi/prompt/settled'));

    const methods = methodsOf(frames.frames);
    expect(methods[0]).to.equal('pi/prompt/started');
    expect(methods.slice(-2)).to.deep.equal(['agent_end', 'pi/prompt/settled']);
    expect(frames.frames.every((frame) => frame.jsonrpc === '2.0' && frame.params.threadId === 'thr_text')).to.equal(true);
    const deltas = frames.frames
      .filter(isSdk('message_update'))
      .map((frame): { type: string; delta?: string } => frame.params.message!.assistantMessageEvent)
      .filter((event) => event.type === 'text_delta')
      .map((event) => event.delta);
    expect(deltas).to.deep.equal(['Hello', ' there']);
    expect(frames.frames.at(-1)!.params).to.deep.equal({ threadId: 'thr_text' });
  });

  it('names the pi session as providerThreadId, and exposes the leaf entry and the model context window', async () => {
    const { thread, frames } = await openTestThread({ baseUrl: server.baseUrl }, cleanup);
    const before = thread.checkpointId?.();
    await thread.prompt('Say hello');
    await frames.waitFor(isMethod('pi/prompt/settled'));

    expect(thread.providerThreadId).to.match(/^[0-9a-f-]{36}$/);
    expect(thread.checkpointId?.()).to.be.a('string').and.not.equal(before);
    expect(thread.contextWindow?.()).to.equal(FAKE_CONTEXT_WINDOW);
  });

  it('runs a bash tool call in the environment folder and reports it as tool_execution events', async () => {
    const { thread, frames, sandbox } = await openTestThread({ baseUrl: server.baseUrl }, cleanup);
    await thread.prompt('Run echo');
    await frames.waitFor(isMethod('pi/prompt/settled'));

    const start = frames.frames.find(isSdk('tool_execution_start'))!.params.message!;
    const end = frames.frames.find(isSdk('tool_execution_end'))!.params.message!;
    expect(start).to.include({ toolName: 'bash' });
    expect(end).to.include({ toolName: 'bash', isError: false, toolCallId: start.toolCallId });
    expect(readFileSync(path.join(sandbox.projectDir, 'ran.txt'), 'utf8')).to.equal('from-bash\n');
  });

  it('ends a run whose model call fails with an error assistant message, and still settles', async () => {
    const { thread, frames } = await openTestThread({ baseUrl: server.baseUrl }, cleanup);
    await thread.prompt('Fail please');
    await frames.waitFor(isMethod('pi/prompt/settled'));

    const end = frames.frames.find(isSdk('agent_end'))!;
    expect(lastAssistantOf(end)).to.include({ stopReason: 'error' });
    expect(lastAssistantOf(end).errorMessage).to.contain('refused by the fake model');
  });

  it('stop() aborts a streaming run: agent_end reports aborted, then the prompt settles', async () => {
    const { thread, frames } = await openTestThread({ baseUrl: server.baseUrl }, cleanup);
    await thread.prompt('Think slowly');
    await frames.waitFor(isSdk('message_update'));
    await thread.stop();
    await frames.waitFor(isMethod('pi/prompt/settled'));

    expect(lastAssistantOf(frames.frames.find(isSdk('agent_end'))!)).to.include({ stopReason: 'aborted' });
    expect(methodsOf(frames.frames).slice(-2)).to.deep.equal(['agent_end', 'pi/prompt/settled']);
  });

  it('queues a prompt sent while a run streams as a follow-up of the same run', async () => {
    const { thread, frames } = await openTestThread({ baseUrl: server.baseUrl }, cleanup);
    await thread.prompt('Think slowly');
    await frames.waitFor(isSdk('message_update'));
    await thread.prompt('Also this');
    server.releaseSlow();
    await frames.waitFor(
      (frame) => frame.method === 'pi/prompt/settled' && frames.frames.filter(isMethod('pi/prompt/settled')).length === 2,
    );

    const methods = methodsOf(frames.frames);
    expect(methods.filter((method) => method === 'agent_start')).to.have.length(1);
    expect(methods.filter((method) => method === 'pi/prompt/started')).to.have.length(2);
    expect(methods.slice(-3)).to.deep.equal(['agent_end', 'pi/prompt/settled', 'pi/prompt/settled']);
  });

  it('accepts two prompts sent at once into an idle session: the second becomes a follow-up, not an error', async () => {
    const { thread, frames } = await openTestThread({ baseUrl: server.baseUrl }, cleanup);
    const both = Promise.all([thread.prompt('Think slowly'), thread.prompt('Also this')]);
    await frames.waitFor(isSdk('message_update'));
    server.releaseSlow();
    await both;
    await frames.waitFor(
      (frame) => frame.method === 'pi/prompt/settled' && frames.frames.filter(isMethod('pi/prompt/settled')).length === 2,
    );

    expect(frames.frames.filter(isMethod('pi/prompt/settled')).map((frame) => frame.params.error)).to.deep.equal([undefined, undefined]);
    expect(methodsOf(frames.frames).filter((method) => method === 'agent_start')).to.have.length(1);
  });

  it('settles only after agent_end even when a slow extension handler delays agent_end past prompt()', async () => {
    const { thread, frames } = await openTestThread(
      { baseUrl: server.baseUrl, extensions: { 'slow.ts': SLOW_AGENT_END_EXTENSION } },
      cleanup,
    );
    await thread.prompt('Say hello');
    await frames.waitFor(isMethod('pi/prompt/settled'));

    expect(methodsOf(frames.frames).slice(-2)).to.deep.equal(['agent_end', 'pi/prompt/settled']);
  });

  it('E3: a project extension starts a run by itself with string content; no prompt signals are sent', async () => {
    const { frames, sandbox } = await openTestThread({ baseUrl: server.baseUrl, extensions: { 'trigger.ts': TRIGGER_EXTENSION } }, cleanup);
    sandbox.triggerAgentRun('Check the build now.');
    const end = await frames.waitFor(isSdk('agent_end'));

    const messages: Array<{ role: string; content: unknown }> = end.params.message!.messages;
    expect(messages[0]).to.include({ role: 'custom', content: 'Check the build now.' });
    expect(lastAssistantOf(end)).to.include({ stopReason: 'stop' });
    expect(frames.frames.some((frame) => frame.method.startsWith('pi/prompt/'))).to.equal(false);
  });

  it('marks the agent_end of a run pi is about to retry with willRetry: true, and the retried run completes', async () => {
    const retrying = { retry: { enabled: true, maxRetries: 1, baseDelayMs: 1, provider: { maxRetries: 0 } } };
    const { thread, frames } = await openTestThread({ baseUrl: server.baseUrl, settings: retrying }, cleanup);
    await thread.prompt('Cut me off');
    await frames.waitFor(isMethod('pi/prompt/settled'));

    const ends = frames.frames.filter(isSdk('agent_end'));
    expect(ends.map((frame) => frame.params.message!.willRetry)).to.deep.equal([true, false]);
    expect(lastAssistantOf(ends[1])).to.include({ stopReason: 'stop' });
  });

  it('keeps a thread running when the daemon side of emit throws', async () => {
    const { thread, frames } = await openTestThread(
      {
        baseUrl: server.baseUrl,
        emit: (frame, log) => {
          if ((frame as Frame).method === 'sdk/message' && (frame as Frame).params.message?.type === 'message_update')
            throw new Error('ingest down');
          log.emit(frame);
        },
      },
      cleanup,
    );
    await thread.prompt('Say hello');
    await frames.waitFor(isMethod('pi/prompt/settled'));
    expect(methodsOf(frames.frames)).to.include('agent_end');
  });

  it('logs a project extension pi cannot load and runs the thread without it', async () => {
    const logged: string[] = [];
    const { thread, frames } = await openTestThread(
      {
        baseUrl: server.baseUrl,
        extensions: { 'broken.ts': 'export default function (pi) { this is not javascript' },
        log: (message) => logged.push(message),
      },
      cleanup,
    );
    await thread.prompt('Say hello');
    await frames.waitFor(isMethod('pi/prompt/settled'));

    expect(logged.join('\n')).to.contain('broken.ts').and.contain('not loaded');
    expect(methodsOf(frames.frames)).to.include('agent_end');
  });

  it('continues the conversation after a restart: same providerThreadId, earlier messages sent to the model', async () => {
    const sandbox = createPiSandbox({ baseUrl: server.baseUrl });
    cleanup.push(() => sandbox.remove());
    const open = (resumeProviderThreadId: string | undefined, emit: (frame: unknown) => void) =>
      createPiProvider({ agentDir: sandbox.agentDir, log: () => undefined }).openThread({
        threadId: 'thr_resume',
        cwd: sandbox.projectDir,
        model: FAKE_MODEL,
        dataDir: sandbox.dataDir,
        resumeProviderThreadId,
        emit,
      });
    let settled!: () => void;
    let done = new Promise<void>((resolve) => (settled = resolve));
    const onFrame = (frame: unknown) => (frame as Frame).method === 'pi/prompt/settled' && settled();
    const first = await open(undefined, onFrame);
    await first.prompt('Remember me');
    await done;
    await first.dispose();

    done = new Promise<void>((resolve) => (settled = resolve));
    const second = await open(first.providerThreadId, onFrame);
    cleanup.unshift(() => second.dispose());
    await second.prompt('What did I say');
    await done;

    expect(second.providerThreadId).to.equal(first.providerThreadId);
    const lastRequest = server.requests.at(-1)!;
    expect(JSON.stringify(lastRequest.messages)).to.contain('Remember me').and.contain('Noted.');
  });

  it('refuses a model missing from the catalog, and a permission mode pi cannot honour', async () => {
    const sandbox = createPiSandbox({ baseUrl: server.baseUrl });
    cleanup.push(() => sandbox.remove());
    const provider = createPiProvider({ agentDir: sandbox.agentDir, log: () => undefined });
    const base = { threadId: 'thr_bad', cwd: sandbox.projectDir, dataDir: sandbox.dataDir, emit: () => undefined };

    const unknownModel = await provider.openThread({ ...base, model: 'fake/no-such-model' }).catch((error: Error) => error);
    expect(String(unknownModel)).to.contain('unknown model "fake/no-such-model"').and.contain('models.json');
    const badMode = await provider
      .openThread({ ...base, model: FAKE_MODEL, permissionMode: 'ask-every-time' as 'ask' })
      .catch((error: Error) => error);
    expect(String(badMode)).to.contain('permission mode "ask-every-time" is not supported');
  });

  it('runs pi offline by default, so grep/find never download rg/fd, unless the user decided otherwise', () => {
    const saved = process.env.PI_OFFLINE;
    try {
      delete process.env.PI_OFFLINE;
      createPiProvider({ log: () => undefined });
      expect(process.env.PI_OFFLINE).to.equal('1');
    } finally {
      process.env.PI_OFFLINE = saved ?? '1';
    }
    const userChoice: NodeJS.ProcessEnv = { PI_OFFLINE: '0' };
    ensurePiOffline(userChoice, false);
    expect(userChoice.PI_OFFLINE).to.equal('0');
    const downloadsAllowed: NodeJS.ProcessEnv = {};
    ensurePiOffline(downloadsAllowed, true);
    expect(downloadsAllowed.PI_OFFLINE).to.equal(undefined);
  });
});
