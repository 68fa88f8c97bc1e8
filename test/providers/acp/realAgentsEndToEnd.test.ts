import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { BUILT_IN_ACP_AGENTS } from '../../../src/daemon/providers/acp';
import { describeWithAgents } from '../../helpers/agents/acpAgents';
import type { AgentScripts, FakeAgentModel } from '../../helpers/fakes/agentModel';
import { REAL_AGENTS, realAgentProvider, type RealAgent } from '../../helpers/agents/realAgents';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { commandRows, completedTurns, completions, eventsUntil, type ThreadEvent } from '../../helpers/server/threadRows';

const SCRIPTS: AgentScripts = {
  'Say hello': [{ kind: 'text', chunks: ['Hello', ' there'] }],
  'Run echo': [
    { kind: 'command', command: 'echo e2e' },
    { kind: 'text', chunks: ['Ran it.'] },
  ],
  'Think slowly': [{ kind: 'slow', chunks: ['Thinking'] }],
};

const AGENTS: RealAgent[] = Object.values(REAL_AGENTS);

for (const { agent, adapter, startModel, envOf } of AGENTS) {
  describeWithAgents(`${agent} end to end: HTTP API → embedded daemon → real ${adapter}`, [agent], function () {
    this.timeout(120_000);
    let model: FakeAgentModel;
    let t: TestServer;
    let projectId: string;
    const logs: string[] = [];
    after(async () => {
      await t?.close();
      await model?.close();
    });
    const tempDir = suiteTempDirs();
    let root: string;
    let projectDir: string;
    // Claude Code may still write into its HOME while its process tree ends after the server closed: remove the
    // folder again once it has settled.
    after(async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (root) await rm(root, { recursive: true, force: true, maxRetries: 3 });
    });

    before(async () => {
      root = await tempDir(`ats-${agent}-e2e-`);
      projectDir = path.join(root, 'project');
      await mkdir(projectDir);
      // Claude's Write tool takes an absolute path: the script names the file in this suite's project folder.
      const write = { kind: 'write' as const, path: path.join(projectDir, 'notes.txt'), content: 'hello\n' };
      model = await startModel({ ...SCRIPTS, 'Write notes': [write, { kind: 'text', chunks: ['Wrote it.'] }] });
      const provider = realAgentProvider(agent, path.join(root, 'home'), model.origin, (message) => logs.push(message));
      t = await startTestServer({ providers: [provider] });
      projectId = (
        await t.json('/projects', {
          body: { name: `${agent} e2e`, source: { type: 'local_path', path: projectDir, hostId: t.server.hostId } },
        })
      ).id;
    });

    const createThread = (prompt: string) =>
      t.json('/threads', {
        body: { projectId, provider: agent, model: `${agent}/default`, title: 'e2e', permissionMode: 'accept-edits', prompt },
      });

    const messages = (events: ThreadEvent[]) =>
      events
        .filter((event) => event.type === 'item/completed' && event.data.item.type === 'agentMessage')
        .map((event) => event.data.item.text);

    it('a streamed answer: the turn completes with the text as the agent message, the thread is idle, providerThreadId is the ACP session', async () => {
      const thread = await createThread('Say hello');
      const events = await eventsUntil(t, thread.id, completedTurns(1));

      expect(events[0]!.type).to.equal('turn/started');
      expect(events.filter((event) => event.type === 'item/agentMessage/delta').map((event) => event.data.delta)).to.include.members([
        'Hello',
        ' there',
      ]);
      expect(messages(events)[0]).to.equal('Hello there');
      expect(completions(events).map((event) => event.data.status)).to.deep.equal(['completed']);
      expect(events.some((event) => event.type === 'thread/tokenUsage/updated')).to.equal(true);
      expect(events[0]!.data.providerThreadId).to.match(/^[0-9a-f-]{36}$/);
      expect((await t.json(`/threads/${thread.id}`)).status).to.equal('idle');
    });

    it('a command runs in the thread folder and is a commandExecution item with its output, between the texts, as in a pi thread', async () => {
      const thread = await createThread('Run echo');
      const events = await eventsUntil(t, thread.id, completedTurns(1));
      const commands = commandRows(events);

      expect(commands.map((event) => event.type)).to.deep.equal(['item/started', 'item/commandExecution/outputDelta', 'item/completed']);
      const [started, delta, done] = commands;
      expect(started!.data.item).to.deep.equal({
        type: 'commandExecution',
        id: started!.data.item.id,
        command: 'echo e2e',
        status: 'inProgress',
        aggregatedOutput: '',
      });
      expect(delta!.data).to.deep.include({ itemId: started!.data.item.id });
      expect(done!.data.item).to.deep.equal({
        ...started!.data.item,
        status: 'completed',
        aggregatedOutput: delta!.data.delta,
        exitCode: 0,
      });
      expect(done!.data.item.aggregatedOutput).to.match(/^e2e\n?$/);
      expect(messages(events.slice(events.indexOf(done!)))).to.include('Ran it.');
      expect(completions(events).map((event) => event.data.status)).to.deep.equal(['completed']);
    });

    it('a file edit is a fileChange item with its diff, allowed by the accept-edits policy, and the file is written', async () => {
      const thread = await createThread('Write notes');
      const events = await eventsUntil(t, thread.id, completedTurns(1));
      const fileRows = events.filter((event) => event.data.item?.type === 'fileChange');
      expect(
        fileRows.map((event) => event.type),
        logs.join('\n'),
      ).to.deep.equal(['item/started', 'item/completed']);
      expect(fileRows[0]!.data.item).to.deep.include({ tool: 'edit', path: path.join(projectDir, 'notes.txt'), status: 'inProgress' });
      expect(fileRows[1]!.data.item).to.deep.include({ status: 'completed' });
      expect(fileRows[1]!.data.item.diff).to.contain('+hello');
      expect(await readFile(path.join(projectDir, 'notes.txt'), 'utf8')).to.equal('hello\n');
      expect(completions(events).map((event) => event.data.status)).to.deep.equal(['completed']);
    });

    it('stop mid-stream ends the turn exactly once, interrupted, and the next prompt works', async () => {
      const thread = await createThread('Think slowly');
      await eventsUntil(t, thread.id, (events) => events.some((event) => event.type === 'item/agentMessage/delta'));
      expect((await t.json(`/threads/${thread.id}`)).status).to.equal('active');

      await t.json(`/threads/${thread.id}/stop`, { method: 'POST' });
      await eventsUntil(t, thread.id, completedTurns(1));
      expect((await t.json(`/threads/${thread.id}`)).status).to.equal('idle');
      await t.json(`/threads/${thread.id}/messages`, { body: { prompt: 'Say hello' } });
      const events = await eventsUntil(t, thread.id, completedTurns(2));
      expect(
        completions(events).map((event) => event.data.status),
        logs.join('\n'),
      ).to.deep.equal(['interrupted', 'completed']);
    });

    it('the agent killed mid-turn fails the turn once with how it ended, and the next prompt starts it again', async () => {
      const thread = await createThread('Think slowly');
      await eventsUntil(t, thread.id, (events) => events.some((event) => event.type === 'item/agentMessage/delta'));
      // The adapter is a child of this process (the embedded daemon spawned it).
      const pids = execFileSync('pgrep', ['-P', String(process.pid), '-f', BUILT_IN_ACP_AGENTS[agent].command])
        .toString()
        .trim()
        .split('\n');
      for (const pid of pids) process.kill(Number(pid), 'SIGKILL');

      const failed = completions(await eventsUntil(t, thread.id, completedTurns(1)));
      expect(failed.map((event) => event.data.status)).to.deep.equal(['failed']);
      expect(failed[0]!.data.error.message).to.match(new RegExp(`^the ${agent} agent exited \\(signal SIGKILL\\)`));
      await t.json(`/threads/${thread.id}/messages`, { body: { prompt: 'Say hello' } });
      const events = await eventsUntil(t, thread.id, completedTurns(2));
      expect(
        completions(events).map((event) => event.data.status),
        logs.join('\n'),
      ).to.deep.equal(['failed', 'completed']);
      expect(messages(events)).to.include('Hello there');
    });
  });
}
