import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { describeWithAgents } from '../../helpers/agents/acpAgents';
import type { AgentScripts, FakeAgentModel } from '../../helpers/fakes/agentModel';
import { REAL_AGENTS, realAgentProvider, type RealAgent } from '../../helpers/agents/realAgents';
import { eventually } from '../../helpers/server/eventually';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { completedTurns, eventsUntil } from '../../helpers/server/threadRows';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

const SCRIPTS: AgentScripts = { 'Say hello': [{ kind: 'text', chunks: ['Hello', ' there'] }] };

/**
 * Nothing of a deleted session stays in the agent's home. Claude Code deletes the transcript. codex-acp archives
 * on `session/delete` from a client without JetBrains AIR's `sessionIndex` extension (ours): the rollout moves
 * from CODEX_HOME/sessions to CODEX_HOME/archived_sessions, and the daemon removes it there (docs/agents.md).
 * Gemini CLI 0.61 offers no `session/delete`: the host removes its session file (`~/.gemini/tmp/<folder>/chats/
 * session-<time>-<first 8 characters of the id>.jsonl`) itself, and only that session's, not another whose id
 * starts with the same 8 characters.
 */
const AGENTS: Array<
  RealAgent & {
    /** What the agent's file names carry of a session id. */
    fileKey: (sessionId: string) => string;
  }
> = [
  { ...REAL_AGENTS.claude, fileKey: (id) => id },
  { ...REAL_AGENTS.codex, fileKey: (id) => id },
  { ...REAL_AGENTS.gemini, fileKey: (id) => id.slice(0, 8) },
];

/**
 * For Gemini: another session's file in the same chats folder whose name carries the same 8 characters (what
 * Gemini CLI's own delete by short id would also take): a copy of ours under another full id, so it must stay.
 * A whole, resumable copy: Gemini CLI's own cleanup at start removes an unreadable session file, and with it
 * every file of the same 8 characters.
 */
async function plantLookAlike(home: string, before: string[], sessionId: string): Promise<string | undefined> {
  const ours = before.find((file) => file.endsWith('.jsonl') && file.includes(`${path.sep}chats${path.sep}`));
  if (!ours) return undefined;
  const lookAlike = path.join(path.dirname(ours), `session-2020-01-01T00-00-${sessionId.slice(0, 8)}.jsonl`);
  const otherId = `${sessionId.slice(0, 8)}-0000-4000-8000-000000000000`;
  const text = await readFile(path.join(home, ours), 'utf8');
  await writeFile(path.join(home, lookAlike), text.split(sessionId).join(otherId));
  return lookAlike;
}

/** Every file under `folder` whose path names `sessionId`, relative to it. */
async function filesNaming(folder: string, sessionId: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true }).catch(() => [] as string[]);
  return entries.filter((entry) => entry.includes(sessionId)).sort();
}

for (const { agent, startModel, envOf, fileKey } of AGENTS) {
  describeWithAgents(`${agent}: a thread delete deletes the agent's session (session/delete, issue 28)`, [agent], function () {
    this.timeout(120_000);
    let model: FakeAgentModel;
    let t: TestServer;
    let projectId: string;
    let home: string;
    let root: string;
    const logs: string[] = [];
    after(async () => {
      await t?.close();
      await model?.close();
    });
    const tempDir = suiteTempDirs();
    // The agents may still write into their HOME while their process trees end: remove it once settled.
    after(async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (root) await rm(root, { recursive: true, force: true, maxRetries: 3 });
    });

    before(async () => {
      root = await tempDir(`ats-${agent}-delete-`);
      home = path.join(root, 'home');
      const projectDir = path.join(root, 'project');
      await mkdir(projectDir);
      model = await startModel(SCRIPTS);
      const provider = realAgentProvider(agent, home, model.origin, (message) => logs.push(message));
      t = await startTestServer({ providers: [provider], config: { agentIdleMs: 500 }, log: (message) => logs.push(message) });
      projectId = (
        await t.json('/projects', {
          body: { name: `${agent} delete`, source: { type: 'local_path', path: projectDir, hostId: t.server.hostId } },
        })
      ).id;
    });

    /** A thread that ran one turn, its agent closed when idle or kept running; and the session's files. */
    async function threadAfterOneTurn(state: 'stopped' | 'running') {
      const thread = await t.json('/threads', { body: { projectId, provider: agent, model: `${agent}/default`, title: 'delete me' } });
      if (state === 'running') await t.json(`/threads/${thread.id}`, { method: 'PATCH', body: { keepAgentRunning: true } });
      await t.json(`/threads/${thread.id}/messages`, { body: { prompt: 'Say hello' } });
      const events = await eventsUntil(t, thread.id, completedTurns(1));
      const session: string = events[0]!.data.providerThreadId;
      await eventually(
        async () => ((await t.json(`/threads/${thread.id}`)).agent === state ? true : undefined),
        `the agent ${state}`,
        30_000,
      );
      return { id: thread.id as string, session };
    }

    for (const state of ['stopped', 'running'] as const) {
      it(`DELETE /threads/:id deletes the session in the agent's home (agent ${state} at the delete)`, async () => {
        const thread = await threadAfterOneTurn(state);
        const before = await filesNaming(home, fileKey(thread.session));
        expect(
          before.some((file) => file.endsWith('.jsonl')),
          `the session's transcript before the delete: ${before.join(', ')}`,
        ).to.equal(true);

        const lookAlike = agent === 'gemini' ? await plantLookAlike(home, before, thread.session) : undefined;
        if (agent === 'gemini') expect(lookAlike, `a Gemini chats file among ${before.join(', ')}`).to.be.a('string');

        expect((await t.api(`/threads/${thread.id}`, { method: 'DELETE' })).status).to.equal(204);
        const after = await filesNaming(home, fileKey(thread.session));
        expect(after, logs.join('\n')).to.deep.equal(lookAlike ? [lookAlike] : []);
        if (agent === 'gemini')
          expect(logs.join('\n')).to.contain(`the host removed session ${thread.session} from the agent's home (1 chat file`);
        expect((await t.api(`/threads/${thread.id}`)).status).to.equal(404);
      });
    }
  });
}
