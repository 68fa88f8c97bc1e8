import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { BUILT_IN_ACP_AGENTS } from '../../../src/daemon/providers/acp';
import type { AgentThread, AskUser } from '../../../src/daemon/providers/agentProvider';
import { ACP_METHOD } from '../../../src/protocol/acpFrames';
import type { ApprovalOptionKind, ApprovalQuestion } from '../../../src/protocol/approvals';
import { alive, childrenOf, commandLineOf, descendantsOf, groupMembers } from '../../helpers/agents/processTree';
import { describeWithAgents } from '../../helpers/agents/acpAgents';
import type { AgentScripts, FakeAgentModel } from '../../helpers/fakes/agentModel';
import { REAL_AGENTS, realAgentProvider, type RealAgent } from '../../helpers/agents/realAgents';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

/**
 * Commands that ask: Claude and Gemini CLI ask before any command that writes in `default`; Codex before leaving
 * its sandbox.
 */
const APPROVED = 'echo approved-run > approved.txt && cat approved.txt';
const REJECTED = 'echo rejected-run > rejected.txt';
const SCRIPTS: AgentScripts = {
  'Run approved': [
    { kind: 'command', command: APPROVED, escalated: true },
    { kind: 'text', chunks: ['Ran it.'] },
  ],
  'Run rejected': [
    { kind: 'command', command: REJECTED, escalated: true },
    { kind: 'text', chunks: ['Did not run it.'] },
  ],
};

const AGENTS: Array<
  RealAgent & {
    /** The agent's own mode for `ask`, then for `accept-edits`. */
    modes: [string, string];
    /** Gemini CLI reports its mode only when it changes, and starts in `default`: its `ask` shows no report. */
    reportsSameMode: boolean;
  }
> = [
  { ...REAL_AGENTS.claude, modes: ['default', 'acceptEdits'], reportsSameMode: true },
  { ...REAL_AGENTS.codex, modes: ['read-only', 'workspace-write'], reportsSameMode: true },
  { ...REAL_AGENTS.gemini, modes: ['default', 'autoEdit'], reportsSameMode: false },
];

interface Frame {
  method: string;
  params: { update?: Record<string, unknown> & { sessionUpdate: string }; stopReason?: string; error?: { message: string } };
}

for (const { agent, startModel, envOf, modes, reportsSameMode } of AGENTS) {
  describeWithAgents(`${agent} approvals and modes through the ACP provider, offline`, function () {
    this.timeout(120_000);
    let model: FakeAgentModel;
    let thread: AgentThread | undefined;
    let cwd: string;
    const frames: Frame[] = [];
    const logs: string[] = [];
    const asked: ApprovalQuestion[] = [];
    let chosenKind: ApprovalOptionKind = 'allow_once';
    after(async () => {
      await thread?.dispose();
      await model?.close();
    });
    const tempDir = suiteTempDirs();

    before(async () => {
      const root = await tempDir(`ats-${agent}-approvals-`);
      cwd = path.join(root, 'work');
      await mkdir(cwd);
      model = await startModel(SCRIPTS);
      const askUser: AskUser = async (question) => {
        asked.push(question);
        const option = question.options.find((candidate) => candidate.kind === chosenKind)!;
        return { outcome: 'selected', optionId: option.optionId, optionKind: option.kind, decidedBy: 'user' };
      };
      const provider = realAgentProvider(agent, path.join(root, 'home'), model.origin, (message) => logs.push(message));
      thread = await provider.openThread({
        threadId: `thr_${agent}`,
        cwd,
        model: `${agent}/default`,
        permissionMode: 'ask',
        askUser,
        dataDir: root,
        emit: (frame) => frames.push(frame as Frame),
      });
    });

    const ends = () => frames.filter((frame) => frame.method === ACP_METHOD.promptEnded);
    async function until(what: string, done: () => boolean): Promise<void> {
      for (let waited = 0; !done(); waited += 20) {
        if (waited > 60_000) throw new Error(`not ${what} after 60 s; frames: ${JSON.stringify(frames)}; log: ${logs.join('\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    /**
     * The agent's mode as each `config_option_update` (Claude and Codex send one on session/set_mode) reports it,
     * or Gemini CLI's `[MODE_UPDATE] <mode>` message chunk.
     */
    const reportedModes = () =>
      frames.flatMap((frame) => {
        const update = frame.params.update;
        const content = update?.['content'] as { text?: unknown } | undefined;
        const geminiReport =
          update?.sessionUpdate === 'agent_message_chunk' &&
          typeof content?.text === 'string' &&
          /^\[MODE_UPDATE\] (\S+)$/.exec(content.text);
        if (geminiReport) return [geminiReport[1]];
        if (update?.sessionUpdate !== 'config_option_update' || !Array.isArray(update['configOptions'])) return [];
        const option = (update['configOptions'] as Array<{ id: string; category?: string; currentValue?: unknown }>).find(
          (candidate) => candidate.id === 'mode' || candidate.category === 'mode',
        );
        return option ? [option.currentValue] : [];
      });

    it(`ask is the agent's own ${modes[0]} mode, set when the session opens`, async () => {
      if (!reportsSameMode) return expect(reportedModes(), 'no change from its starting mode').to.deep.equal([]);
      await until(`in ${modes[0]}`, () => reportedModes().length > 0);
      expect(reportedModes()).to.deep.equal([modes[0]]);
    });

    it("a command that needs permission asks the user with the command line and the agent's options; allowed, it runs and its output arrives", async () => {
      chosenKind = 'allow_once';
      await thread!.prompt('Run approved');
      await until('answered', () => ends().length === 1);
      expect(ends()[0]!.params.stopReason, logs.join('\n')).to.equal('end_turn');
      expect(asked).to.have.length(1);
      expect(asked[0]!.subject).to.deep.include({ kind: 'execute', command: APPROVED });
      expect(asked[0]!.options.map((option) => option.kind)).to.include.members(['allow_once', 'reject_once']);
      expect(readFileSync(path.join(cwd, 'approved.txt'), 'utf8')).to.equal('approved-run\n');
      const toolUpdates = frames.filter((frame) => frame.params.update?.sessionUpdate === 'tool_call_update');
      expect(JSON.stringify(toolUpdates)).to.include('approved-run');
    });

    it('rejected, the command does not run and the turn ends', async () => {
      chosenKind = 'reject_once';
      await thread!.prompt('Run rejected');
      await until('answered', () => ends().length === 2);
      expect(ends()[1]!.params.error, logs.join('\n')).to.equal(undefined);
      expect(asked.map((question) => question.subject.command)).to.deep.equal([APPROVED, REJECTED]);
      expect(existsSync(path.join(cwd, 'rejected.txt'))).to.equal(false);
    });

    it(`setPermissionMode reaches the agent: accept-edits is its ${modes[1]} mode`, async () => {
      await thread!.setPermissionMode!('accept-edits');
      const expected = reportsSameMode ? modes : [modes[1]];
      await until(`in ${modes[1]}`, () => reportedModes().length === expected.length);
      expect(reportedModes()).to.deep.equal(expected);
    });

    if (agent === 'claude') {
      it("close leaves no process of the agent's tree or group behind (Claude Code's own children included)", async () => {
        const [leader, ...more] = childrenOf(process.pid).filter((pid) => commandLineOf(pid).includes(BUILT_IN_ACP_AGENTS.claude.command));
        expect(more, 'one claude-agent-acp').to.deep.equal([]);
        const tree = [leader!, ...descendantsOf(leader!)];
        expect(tree.length, 'claude-agent-acp runs Claude Code as a child').to.be.greaterThan(1);
        await thread!.dispose();
        thread = undefined;
        expect(tree.filter(alive)).to.deep.equal([]);
        expect(groupMembers(leader!), 'its process group').to.deep.equal([]);
      });
    }
  });
}
