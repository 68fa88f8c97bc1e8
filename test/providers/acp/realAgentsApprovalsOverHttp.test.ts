import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { describeWithAgents } from '../../helpers/agents/acpAgents';
import type { AgentScripts, FakeAgentModel } from '../../helpers/fakes/agentModel';
import { REAL_AGENTS, realAgentProvider, type RealAgent } from '../../helpers/agents/realAgents';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { completedTurns, completions, eventsUntil, type ThreadEvent } from '../../helpers/server/threadRows';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

/**
 * Commands that ask: Claude and Gemini CLI ask before any command that writes in `default`; Codex before leaving
 * its sandbox.
 */
const SCRIPTS: AgentScripts = {
  'Run approved': [
    { kind: 'command', command: 'echo approved-run > approved.txt && cat approved.txt', escalated: true },
    { kind: 'text', chunks: ['Ran it.'] },
  ],
  'Run rejected': [
    { kind: 'command', command: 'echo rejected-run > rejected.txt', escalated: true },
    { kind: 'text', chunks: ['Did not run it.'] },
  ],
  'Say hello': [{ kind: 'text', chunks: ['Hello', ' there'] }],
};

/**
 * `afterReject`: how the turn ends once the user rejects. Claude and Gemini CLI tell their model and go on;
 * Codex's only reject option is `cancel`, which aborts its turn (`stopReason: cancelled` → `interrupted`).
 */
const AGENTS: Array<RealAgent & { afterReject: 'completed' | 'interrupted' }> = [
  { ...REAL_AGENTS.claude, afterReject: 'completed' },
  { ...REAL_AGENTS.codex, afterReject: 'interrupted' },
  // Gemini CLI 0.61 resumes too: the daemon waits out the minute its session was made (geminiSessionMinute.ts).
  { ...REAL_AGENTS.gemini, afterReject: 'completed' },
];

const ofType = (events: ThreadEvent[], type: string) => events.filter((event) => event.type === type);

for (const { agent, startModel, envOf, afterReject } of AGENTS) {
  describeWithAgents(`${agent} approvals over HTTP and a daemon restart: API → embedded daemon → real agent`, [agent], function () {
    this.timeout(150_000);
    let model: FakeAgentModel;
    let t: TestServer;
    let root: string;
    let projectDir: string;
    let threadId: string;
    const logs: string[] = [];
    const tempDir = suiteTempDirs();
    const startServer = (dataDir?: string) =>
      startTestServer({
        dataDir,
        providers: [realAgentProvider(agent, path.join(root, 'home'), model.origin, (message) => logs.push(message))],
      });

    before(async () => {
      root = await tempDir(`ats-${agent}-http-approvals-`);
      projectDir = path.join(root, 'project');
      await mkdir(projectDir);
      model = await startModel(SCRIPTS);
      t = await startServer();
      const project = await t.json('/projects', {
        body: { name: 'approvals', source: { type: 'local_path', path: projectDir, hostId: t.server.hostId } },
      });
      threadId = (
        await t.json('/threads', {
          body: { projectId: project.id, provider: agent, model: `${agent}/default`, title: 'ask', permissionMode: 'ask' },
        })
      ).id;
    });
    after(async () => {
      await t?.close();
      await model?.close();
      // Claude Code may still write into its HOME while its process group ends.
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (root) await rm(root, { recursive: true, force: true, maxRetries: 3 });
    });

    /** Sends `prompt`, waits for the agent's question, answers it with the option of `kind`, waits for the turn. */
    async function answerWith(prompt: string, kind: 'allow_once' | 'reject_once', turns: number) {
      await t.json(`/threads/${threadId}/messages`, { body: { prompt } });
      const asked = await eventsUntil(t, threadId, (events) => ofType(events, 'approval/requested').length >= turns);
      const question = ofType(asked, 'approval/requested').at(-1)!;
      const view = await t.json(`/threads/${threadId}`);
      expect(view.runtime).to.deep.include({ activity: 'waiting-for-approval', pendingApprovalIds: [question.data.approvalId] });
      const option = question.data.options.find((candidate: { kind: string }) => candidate.kind === kind);
      expect(option, JSON.stringify(question.data.options)).to.not.equal(undefined);
      const answer = await t.json(`/threads/${threadId}/approvals/${question.data.approvalId}`, { body: { optionId: option.optionId } });
      expect(answer).to.deep.include({
        approvalId: question.data.approvalId,
        optionId: option.optionId,
        optionKind: kind,
        decidedBy: 'user',
      });
      const again = await t.api(`/threads/${threadId}/approvals/${question.data.approvalId}`, { body: { optionId: option.optionId } });
      expect(again.status).to.equal(409);
      const events = await eventsUntil(t, threadId, completedTurns(turns));
      return { question, events };
    }

    it('ask: the question is a row with the command line, the thread waits for an answer, and allowed by the user the command runs', async () => {
      const { question, events } = await answerWith('Run approved', 'allow_once', 1);
      expect(question.data.subject.command, logs.join('\n')).to.contain('echo approved-run');
      expect(question.data.permissionMode).to.equal('ask');
      expect(ofType(events, 'approval/resolved').map((event) => event.data)).to.deep.equal([
        {
          ...ofType(events, 'approval/resolved')[0]!.data,
          approvalId: question.data.approvalId,
          decidedBy: 'user',
          optionKind: 'allow_once',
        },
      ]);
      expect(completions(events).map((event) => event.data.status)).to.deep.equal(['completed']);
      expect(readFileSync(path.join(projectDir, 'approved.txt'), 'utf8')).to.equal('approved-run\n');
      expect((await t.json(`/threads/${threadId}`)).runtime).to.deep.include({ activity: 'idle', pendingApprovalIds: [] });
    });

    it(`rejected by the user, the command does not run and the turn ends ${afterReject}`, async () => {
      const { events } = await answerWith('Run rejected', 'reject_once', 2);
      expect(ofType(events, 'approval/resolved').at(-1)!.data).to.deep.include({ decidedBy: 'user', optionKind: 'reject_once' });
      expect(completions(events).map((event) => event.data.status)).to.deep.equal(['completed', afterReject]);
      expect(existsSync(path.join(projectDir, 'rejected.txt'))).to.equal(false);
    });

    it('after a daemon restart the thread resumes the same session, and nothing already stored is stored again', async () => {
      const before: ThreadEvent[] = await t.json(`/threads/${threadId}/events?limit=1000`);
      const session = before[0]!.data.providerThreadId;
      const dataDir = t.dataDir;
      await t.close({ keepData: true });
      t = await startServer(dataDir);

      await t.json(`/threads/${threadId}/messages`, { body: { prompt: 'Say hello' } });
      const events = await eventsUntil(t, threadId, completedTurns(3));
      expect(events.slice(0, before.length)).to.deep.equal(before);
      expect(events.map((event) => event.seq)).to.deep.equal(events.map((_, index) => index + 1));
      const added = events.slice(before.length);
      const sessions = ofType(added, 'turn/started').map((event) => event.data.providerThreadId);
      expect(sessions, logs.join('\n')).to.deep.equal([session]);
      // A replayed history would add the earlier answers and questions again.
      expect(ofType(added, 'approval/requested')).to.deep.equal([]);
      expect(
        ofType(added, 'item/completed')
          .filter((event) => event.data.item.type === 'agentMessage')
          .map((event) => event.data.item.text),
      ).to.deep.equal(['Hello there']);
      expect(completions(events).map((event) => event.data.status)).to.deep.equal(['completed', afterReject, 'completed']);
    });
  });
}
