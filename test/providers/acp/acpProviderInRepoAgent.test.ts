import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createAcpProvider } from '../../../src/daemon/providers/acp';
import type { AgentThread } from '../../../src/daemon/providers/agentProvider';
import { ACP_METHOD } from '../../../src/protocol/acpFrames';
import { runPipeline, typesOf } from '../../helpers/pipeline/run';

const AGENT_SCRIPT = path.join(__dirname, '..', '..', 'helpers', 'agents', 'inRepoAcpAgent.mjs');

interface Frame {
  method: string;
  params: {
    threadId: string;
    update?: { sessionUpdate: string; content?: { text?: string } };
    stopReason?: string;
    error?: { message: string };
  };
}

/**
 * The ACP provider against an agent of our own written with the SDK's agent side (test/helpers/agents/inRepoAcpAgent.mjs):
 * the edges real agents rarely show, with no install needed.
 */
describe('ACP provider with an in-repo ACP agent', function () {
  this.timeout(30_000);
  let cwd: string;
  let frames: Frame[];
  let thread: AgentThread;
  const logs: string[] = [];

  beforeEach(async () => {
    cwd = await mkdtemp(path.join(os.tmpdir(), 'ats-acp-inrepo-'));
    frames = [];
    const provider = createAcpProvider({
      name: 'inrepo',
      spec: { command: process.execPath, args: [AGENT_SCRIPT], env: {} },
      log: (message) => logs.push(message),
    });
    thread = await provider.openThread({
      threadId: 'thr_x',
      cwd,
      model: 'inrepo/default',
      permissionMode: 'accept-edits',
      dataDir: cwd,
      emit: (frame) => frames.push(frame as Frame),
    });
  });
  afterEach(async () => {
    await thread?.dispose();
    await rm(cwd, { recursive: true, force: true });
  });

  const ends = () => frames.filter((frame) => frame.method === ACP_METHOD.promptEnded);
  async function untilEnds(count: number): Promise<void> {
    for (let waited = 0; ends().length < count; waited += 10) {
      if (waited > 20_000) throw new Error(`no prompt end after 20 s; frames: ${JSON.stringify(frames)}; log: ${logs.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  const statuses = async () =>
    (await runPipeline(frames)).rows.filter((row) => row.type === 'turn/completed').map((row) => (row.data as { status: string }).status);

  it('names the ACP session as providerThreadId and streams a prompt as one completed turn', async () => {
    expect(thread.providerThreadId).to.match(/^in-repo-session-1-/);
    await thread.prompt('say hi');
    await untilEnds(1);
    expect(frames.map((frame) => frame.method)).to.deep.equal([
      ACP_METHOD.promptStarted,
      ACP_METHOD.update,
      ACP_METHOD.update,
      ACP_METHOD.promptEnded,
    ]);
    const { rows } = await runPipeline(frames);
    expect(typesOf(rows)).to.include.members(['turn/started', 'item/completed', 'thread/tokenUsage/updated', 'turn/completed']);
    expect(await statuses()).to.deep.equal(['completed']);
  });

  it('emits the prompt end after every update that came before the answer, however they race', async () => {
    await thread.prompt('race');
    await untilEnds(1);
    const chunks = frames.filter((frame) => frame.method === ACP_METHOD.update).map((frame) => frame.params.update?.content?.text);
    expect(chunks).to.deep.equal(Array.from({ length: 50 }, (_, i) => `${i},`));
    expect(frames.at(-1)!.method).to.equal(ACP_METHOD.promptEnded);
  });

  it('passes an unknown update kind on (kept as provider/unhandled) and the turn goes on', async () => {
    await thread.prompt('unknown kind');
    await untilEnds(1);
    const { rows } = await runPipeline(frames);
    expect(rows.filter((row) => row.type === 'provider/unhandled').map((row) => (row.data as { rawType: string }).rawType)).to.deep.equal([
      'acp/brand_new_kind',
    ]);
    expect(await statuses()).to.deep.equal(['completed']);
  });

  it('stop sends session/cancel: the turn completes interrupted once', async () => {
    await thread.prompt('hang');
    for (let waited = 0; !frames.some((frame) => frame.method === ACP_METHOD.update); waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await thread.stop();
    await untilEnds(1);
    expect(ends()[0]!.params.stopReason).to.equal('cancelled');
    expect(await statuses()).to.deep.equal(['interrupted']);
  });

  it('an agent that dies mid-turn fails the turn once with how it ended, and the next prompt starts it again', async () => {
    await thread.prompt('die');
    await untilEnds(1);
    expect(ends()[0]!.params.error?.message).to.match(/^the inrepo agent exited \(code 3\)/);
    await thread.prompt('say hi');
    await untilEnds(2);
    expect(await statuses()).to.deep.equal(['failed', 'completed']);
  });

  it("with nobody to ask (no askUser), a permission request is refused by the agent's reject option, and the agent goes on", async () => {
    await thread.prompt('ask');
    await untilEnds(1);
    const { rows } = await runPipeline(frames);
    const texts = rows
      .filter((row) => row.type === 'item/completed')
      .map((row) => (row.data as { item: { type: string; text?: string } }).item);
    expect(texts).to.deep.include({
      type: 'agentMessage',
      id: texts.find((item) => item.type === 'agentMessage')!['id' as never],
      text: 'permission: no',
    });
    expect(logs.some((line) => line.includes('refused rm -rf build'))).to.equal(true);
  });

  // load-late: the agent replays its history after answering session/load (Gemini CLI), up to the next prompt.
  for (const resume of ['resume', 'load', 'load-late'] as const) {
    it(`a thread opened again (a daemon restart) continues its ACP session by session/${resume}, and no replayed history is emitted`, async () => {
      await thread.prompt('say hi');
      await untilEnds(1);
      const sessionId = thread.providerThreadId;
      await thread.dispose();
      const reopenedFrames: Frame[] = [];
      const provider = createAcpProvider({
        name: 'inrepo',
        spec: { command: process.execPath, args: [AGENT_SCRIPT], env: { IN_REPO_AGENT_RESUME: resume } },
        log: (message) => logs.push(message),
      });
      thread = await provider.openThread({
        threadId: 'thr_x',
        cwd,
        model: 'inrepo/default',
        dataDir: cwd,
        resumeProviderThreadId: sessionId,
        emit: (frame) => reopenedFrames.push(frame as Frame),
      });
      expect(thread.providerThreadId).to.equal(sessionId);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(reopenedFrames).to.deep.equal([]);
    });
  }
});
