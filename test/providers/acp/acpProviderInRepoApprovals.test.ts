import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createAcpProvider } from '../../../src/daemon/providers/acp';
import type { AgentThread, AskUser } from '../../../src/daemon/providers/agentProvider';
import { ACP_METHOD } from '../../../src/protocol/acpFrames';
import type { ApprovalQuestion, PermissionMode } from '../../../src/protocol/approvals';
import { alive } from '../../helpers/agents/processTree';
import { runPipeline } from '../../helpers/pipeline/run';

const AGENT_SCRIPT = path.join(__dirname, '..', '..', 'helpers', 'agents', 'inRepoAcpAgent.mjs');

interface Frame {
  method: string;
  params: {
    update?: { sessionUpdate: string; content?: { text?: string }; currentModeId?: string };
    stopReason?: string;
    error?: { message: string };
  };
}

/**
 * Approvals and modes through the ACP provider, against the in-repo agent (test/helpers/agents/inRepoAcpAgent.mjs):
 * the question the daemon gets, the answer the agent gets, and the edges (a stop or a dead agent while a question
 * is open, a malformed message, set_mode, a process the agent leaves behind).
 */
describe('ACP provider approvals and modes with an in-repo ACP agent', function () {
  this.timeout(30_000);
  let cwd: string;
  let frames: Frame[];
  let thread: AgentThread | undefined;
  let logs: string[];
  let asked: Array<{ question: ApprovalQuestion; signal?: AbortSignal }>;

  beforeEach(async () => {
    cwd = await mkdtemp(path.join(os.tmpdir(), 'ats-acp-approvals-'));
    frames = [];
    logs = [];
    asked = [];
  });
  afterEach(async () => {
    await thread?.dispose();
    thread = undefined;
    await rm(cwd, { recursive: true, force: true });
  });

  async function open(answer: AskUser, options: { permissionMode?: PermissionMode; env?: Record<string, string> } = {}) {
    const provider = createAcpProvider({
      name: 'inrepo',
      spec: { command: process.execPath, args: [AGENT_SCRIPT], env: options.env ?? {} },
      log: (message) => logs.push(message),
    });
    thread = await provider.openThread({
      threadId: 'thr_x',
      cwd,
      model: 'inrepo/default',
      permissionMode: options.permissionMode ?? 'accept-edits',
      dataDir: cwd,
      askUser: (question, signal) => {
        asked.push({ question, signal });
        return answer(question, signal);
      },
      emit: (frame) => frames.push(frame as Frame),
    });
    return thread;
  }
  const never: AskUser = () => new Promise(() => undefined);

  async function until(what: string, done: () => boolean): Promise<void> {
    for (let waited = 0; !done(); waited += 10) {
      if (waited > 20_000) throw new Error(`not ${what} after 20 s; frames: ${JSON.stringify(frames)}; log: ${logs.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  const ends = () => frames.filter((frame) => frame.method === ACP_METHOD.promptEnded);
  const texts = () =>
    frames.flatMap((frame) => (frame.params.update?.sessionUpdate === 'agent_message_chunk' ? [frame.params.update.content?.text] : []));
  const modeUpdates = () =>
    frames.flatMap((frame) => (frame.params.update?.sessionUpdate === 'current_mode_update' ? [frame.params.update.currentModeId] : []));

  it('a permission request reaches askUser as the question, and the chosen option goes back to the agent', async () => {
    await open(async (question) => ({
      outcome: 'selected',
      optionId: question.options[0]!.optionId,
      optionKind: 'allow_once',
      decidedBy: 'user',
    }));
    await thread!.prompt('ask');
    await until('ended', () => ends().length === 1);
    expect(asked.map((entry) => entry.question)).to.deep.equal([
      {
        subject: { kind: 'execute', title: 'rm -rf build', toolCallId: 'call_ask', command: 'rm -rf build', paths: [] },
        options: [
          { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
        ],
      },
    ]);
    expect(texts()).to.include('permission: yes');
    expect(ends()[0]!.params.stopReason).to.equal('end_turn');
  });

  it('stop while a question is open: its signal aborts, the agent is told cancelled, and the turn ends interrupted', async () => {
    await open(never);
    await thread!.prompt('ask');
    await until('asked', () => asked.length === 1);
    expect(asked[0]!.signal!.aborted).to.equal(false);
    await thread!.stop();
    await until('ended', () => ends().length === 1);
    expect(asked[0]!.signal!.aborted).to.equal(true);
    expect(texts()).to.include('permission: cancelled');
    const { rows } = await runPipeline(frames);
    expect(rows.filter((row) => row.type === 'turn/completed').map((row) => (row.data as { status: string }).status)).to.deep.equal([
      'interrupted',
    ]);
  });

  it("the agent killed while a question is open: the question's signal aborts and the turn fails", async () => {
    await open(never);
    await thread!.prompt('ask');
    await until('asked', () => asked.length === 1);
    const pid = Number(/-(\d+)$/.exec(thread!.providerThreadId)![1]);
    process.kill(pid, 'SIGKILL');
    await until('ended', () => ends().length === 1);
    expect(asked[0]!.signal!.aborted).to.equal(true);
    expect(ends()[0]!.params.error?.message).to.match(/^the inrepo agent exited \(signal SIGKILL\)/);
  });

  it('lines that are no ACP messages (not JSON, a bad update, an answer to nothing) do not break the thread', async () => {
    await open(never);
    await thread!.prompt('malformed');
    await until('ended', () => ends().length === 1);
    expect(texts()).to.deep.equal(['still fine']);
    expect(ends()[0]!.params.stopReason).to.equal('end_turn');
    await thread!.prompt('say hi');
    await until('ended twice', () => ends().length === 2);
    expect(texts()).to.deep.equal(['still fine', 'Hi', ' there']);
  });

  it("close ends the agent's whole process group: a process it started does not outlive the thread", async () => {
    await open(never);
    await thread!.prompt('child');
    await until('ended', () => ends().length === 1);
    const pid = Number(/^child (\d+)$/.exec(texts()[0]!)![1]);
    expect(alive(pid)).to.equal(true);
    await thread!.dispose();
    thread = undefined;
    expect(alive(pid)).to.equal(false);
  });

  it("the thread's mode is set as the agent's own at open, and setPermissionMode switches it", async () => {
    await open(never, { permissionMode: 'ask', env: { IN_REPO_AGENT_MODES: '1' } });
    await until('in default', () => modeUpdates().length === 1);
    expect(modeUpdates()).to.deep.equal(['default']);
    await thread!.setPermissionMode!('accept-edits');
    await thread!.setPermissionMode!('full-access');
    await until('switched twice', () => modeUpdates().length === 3);
    expect(modeUpdates()).to.deep.equal(['default', 'acceptEdits', 'auto']);
  });

  it('an agent without modes keeps its own, and the log says so', async () => {
    await open(never, { permissionMode: 'ask' });
    await thread!.setPermissionMode!('full-access');
    expect(modeUpdates()).to.deep.equal([]);
    expect(logs.filter((line) => line.includes('offers no mode'))).to.deep.equal([
      'inrepo thread thr_x: the agent offers no mode for "ask"; it keeps its own',
      'inrepo thread thr_x: the agent offers no mode for "full-access"; it keeps its own',
    ]);
  });
});
