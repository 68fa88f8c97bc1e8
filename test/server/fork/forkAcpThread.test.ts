import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { BUILT_IN_ACP_AGENTS, createAcpProvider, type AcpAgentSpec } from '../../../src/daemon/providers/acp';
import { FORK_CONTEXT_HEADING } from '../../../src/server/fork/forkContext';
import { describeWithAgents, TEST_AGENTS_BIN, type TestAgent } from '../../helpers/agents/acpAgents';
import { alive, commandLineOf, descendantsOf } from '../../helpers/agents/processTree';
import { REAL_AGENTS } from '../../helpers/agents/realAgents';
import type { AgentReply, AgentScripts, FakeAgentModel } from '../../helpers/fakes/agentModel';
import { initRepo } from '../../helpers/git/gitRepo';
import { eventually } from '../../helpers/server/eventually';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { completedTurns, completions, eventsUntil } from '../../helpers/server/threadRows';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

type Thread = { id: string; providerThreadId?: string };

/** How a fork continues: the agent's own fork of its session, or a fresh session told the earlier conversation. */
type Way = 'session' | 'told';

interface Case {
  agent: TestAgent;
  title: string;
  spec: AcpAgentSpec;
  /** How a fork at the last turn continues, and one at the first of two. */
  atEnd: Way;
  inMiddle: Way;
  /** The first turn's answer writes a file (Claude's Write tool: a tool call and its result in the history). */
  writes: boolean;
}

const CASES: Case[] = [
  { agent: 'claude', title: 'Claude Code', spec: BUILT_IN_ACP_AGENTS.claude, atEnd: 'session', inMiddle: 'session', writes: true },
  { agent: 'codex', title: 'Codex', spec: BUILT_IN_ACP_AGENTS.codex, atEnd: 'session', inMiddle: 'session', writes: false },
  {
    agent: 'claude',
    title: 'an agent that forks only whole sessions (Claude Code declared without its fork point)',
    spec: { ...BUILT_IN_ACP_AGENTS.claude, forkPointMeta: undefined },
    atEnd: 'session',
    inMiddle: 'told',
    writes: true,
  },
  {
    agent: 'gemini',
    title: 'Gemini CLI (no session/fork)',
    spec: BUILT_IN_ACP_AGENTS.gemini,
    atEnd: 'told',
    inMiddle: 'told',
    writes: false,
  },
];

/**
 * Keys are matched against the latest user text naming one, in this order: a fork told the earlier conversation
 * as text holds the earlier keys too, so the fork's own come first.
 */
const scriptsOf = (writes: boolean): AgentScripts => {
  const written: AgentReply = { kind: 'text', chunks: ['Written.'] };
  return {
    'Continue at the end': [{ kind: 'text', chunks: ['Continuing at the end.'] }],
    'Continue after the first': [{ kind: 'text', chunks: ['Continuing after the first.'] }],
    'Change the greeting': [{ kind: 'text', chunks: ['Changed.'] }],
    'Write the greeting': writes ? [{ kind: 'write', path: 'greeting.txt', content: 'hello\n' }, written] : [written],
  };
};

/**
 * Issue 39: a thread of a real ACP agent forked through the agent's own `session/fork` where it offers one (at a
 * middle turn only where it takes a fork point), so the model gets the real earlier messages, not a text preface.
 */
for (const { agent, title, spec, atEnd, inMiddle, writes } of CASES) {
  const { startModel, envOf } = REAL_AGENTS[agent];
  describeWithAgents(`server: POST /threads/:id/fork of a real ${agent} thread: ${title} (issue 39)`, [agent], function () {
    this.timeout(300_000);
    const tempDir = suiteTempDirs();
    let model: FakeAgentModel;
    let t: TestServer;
    let root: string;
    let home: string;
    let source: Thread;
    const logs: string[] = [];

    before(async () => {
      root = await tempDir(`ats-${agent}-fork-`);
      home = path.join(root, 'home');
      model = await startModel(scriptsOf(writes));
      const log = (message: string) => logs.push(message);
      const provider = createAcpProvider({ name: agent, spec, env: envOf(home, model.origin), binDirs: [TEST_AGENTS_BIN], log });
      t = await startTestServer({ providers: [provider] });
      const checkout = path.join(root, 'project');
      await mkdir(checkout);
      initRepo(checkout, { 'README.md': '# demo\n' });
      const project = await t.json('/projects', {
        body: { name: 'demo', source: { type: 'local_path', path: checkout, hostId: t.server.hostId } },
      });
      source = await t.json('/threads', {
        body: {
          projectId: project.id,
          provider: agent,
          model: `${agent}/default`,
          title: 'Greeting',
          workspace: 'worktree',
          prompt: 'Write the greeting',
        },
      });
      await eventsUntil(t, source.id, completedTurns(1));
      await t.json(`/threads/${source.id}/messages`, { body: { prompt: 'Change the greeting' } });
      const events = await eventsUntil(t, source.id, completedTurns(2));
      expect(
        completions(events).map((event) => event.data.status),
        logs.join('\n'),
      ).to.deep.equal(['completed', 'completed']);
    });
    after(async () => {
      await t?.close();
      await model?.close();
      // An agent's processes may still write into its HOME while their group ends.
      await eventually(async () => descendantsOf(process.pid).filter(alive).length === 0 || undefined, 'the agents ended', 10_000);
      if (root) await rm(root, { recursive: true, force: true, maxRetries: 3 });
    });

    /** The main loop's request of the prompt `text` (side calls, such as a title, are sent no tools). */
    const requestOf = (text: string) => {
      const found = model.requests.filter((request) => Array.isArray(request.body['tools']) && JSON.stringify(request.body).includes(text));
      expect(found, `no request of "${text}":\n${logs.join('\n')}`).to.not.have.length(0);
      return JSON.stringify(found[0]!.body);
    };
    /** What the agent keeps of a session: files named by its id somewhere in the agent's HOME. */
    const sessionFiles = (sessionId: string) =>
      (readdirSync(home, { recursive: true }) as string[]).filter((name) => name.includes(sessionId)).map((name) => path.join(home, name));
    const readAll = (files: string[]) => files.map((file) => (file.endsWith('.jsonl') ? readFileSync(file) : undefined));

    /** Forks the source with `body`, checks what must hold either way, and sends the fork its first prompt. */
    const forkAndPrompt = async (body: Record<string, unknown>, prompt: string, way: Way) => {
      const sourceSession = (await eventsUntil(t, source.id, completedTurns(2)))[0]!.data.providerThreadId as string;
      const files = sessionFiles(sourceSession);
      const sessionBefore = readAll(files);
      const processesBefore = new Set(descendantsOf(process.pid));
      const answer = await t.api(`/threads/${source.id}/fork`, { body });
      expect(answer.status, logs.join('\n')).to.equal(201);
      const forked: Thread = await answer.json();
      // An agent started for the fork is gone with every process it made; the source's session is only read.
      const fresh = descendantsOf(process.pid).filter((pid) => !processesBefore.has(pid) && alive(pid));
      expect(fresh.map((pid) => `${pid} ${commandLineOf(pid)}`)).to.deep.equal([]);
      expect(readAll(files)).to.deep.equal(sessionBefore);
      if (way === 'session')
        expect(forked.providerThreadId, logs.join('\n')).to.be.a('string').and.not.be.oneOf([sourceSession, forked.id]);
      await t.json(`/threads/${forked.id}/messages`, { body: { prompt } });
      const events = await eventsUntil(
        t,
        forked.id,
        (rows) => rows.filter((row) => row.type === 'turn/completed').length > 2 - (body['turnId'] ? 1 : 0),
      );
      const sessions = events.filter((event) => event.type === 'turn/started').map((event) => event.data.providerThreadId);
      if (way === 'session') expect(sessions.at(-1), logs.join('\n')).to.equal(forked.providerThreadId);
      const request = requestOf(prompt);
      // Told: the conversation is one text before the prompt. Forked: the earlier messages are messages of their own.
      if (way === 'told') expect(request).to.include(FORK_CONTEXT_HEADING);
      else expect(request).to.not.include(FORK_CONTEXT_HEADING);
      return request;
    };

    it(`forked at its last turn: ${atEnd === 'session' ? 'the agent forks its session, so the model gets the whole earlier conversation as messages' : 'a fresh session is told the earlier conversation'}`, async () => {
      const request = await forkAndPrompt({}, 'Continue at the end', atEnd);
      expect(request).to.include('Write the greeting').and.include('Written.').and.include('Change the greeting').and.include('Changed.');
      if (writes) expect(request).to.include('greeting.txt');
    });

    it(`forked at its first turn: ${inMiddle === 'session' ? 'the agent forks its session at that turn’s last message' : 'a fresh session is told the conversation up to that turn'}, and nothing after`, async () => {
      const [firstTurn] = completions(await eventsUntil(t, source.id, completedTurns(2)));
      const request = await forkAndPrompt({ turnId: firstTurn!.turnId, workspace: 'checkout' }, 'Continue after the first', inMiddle);
      expect(request).to.include('Write the greeting').and.include('Written.').and.not.include('Change the greeting');
      if (writes) expect(request).to.include('greeting.txt');
    });
  });
}
