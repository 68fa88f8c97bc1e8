import { expect } from 'chai';
import { agentStart } from '../../helpers/server/frames';
import { eventually } from '../../helpers/server/eventually';
import { fakeProvider } from '../../helpers/fakes/provider';
import { rpc, startTestServer } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

describe('a host hello starts only the agents needed now (issue 28)', () => {
  const tempDir = suiteTempDirs();

  it('a host with 200 threads starts none at its hello but its kept-running one; the others start at their first prompt', async () => {
    const first = await startTestServer({ providers: [fakeProvider('fake')] });
    const folder = await tempDir('ats-hello-');
    const project = await first.json('/projects', {
      body: { name: 'many', source: { type: 'local_path', path: folder, hostId: first.server.hostId } },
    });
    const threads: Array<{ id: string }> = [];
    for (let i = 0; i < 200; i++) {
      threads.push(
        await first.json('/threads', { body: { projectId: project.id, provider: 'fake', model: 'fake/model', title: `t${i}` } }),
      );
    }
    const kept = (await first.server.registry.threads.get(threads[7]!.id))!;
    await first.server.registry.threads.put({ ...kept, keepAgentRunning: true });
    await first.close({ keepData: true });

    const logs: string[] = [];
    const restarted = fakeProvider('fake');
    const second = await startTestServer({ dataDir: first.dataDir, providers: [restarted], log: (line) => logs.push(line) });
    try {
      await eventually(() => logs.find((line) => line.startsWith('re-opened')), 'the re-open summary');
      expect(logs).to.include(`re-opened 1 of 1 threads on host ${second.server.hostId}`);
      expect(restarted.opened.map((o) => o.threadId)).to.deep.equal([kept.id]);
      // A thread the host has not opened since its hello answers every command.
      const lazy = threads[3]!.id;
      expect((await second.json(`/threads/${lazy}`)).status).to.equal('idle');
      expect((await second.json(`/threads/${lazy}/stop`, { method: 'POST', body: {} })).seqs).to.deep.equal([]);
      expect((await second.api(`/threads/${lazy}/approvals/apr_none`, { body: { optionId: 'allow-once' } })).status).to.equal(404);
      await second.json(`/threads/${lazy}/messages`, { body: { prompt: 'hi' } });
      expect(restarted.opened.map((o) => o.threadId)).to.deep.equal([kept.id, lazy]);
    } finally {
      await second.close();
    }
  });

  it('a thread whose stored turn is still open is opened at the hello: the dead turn closes interrupted without a read', async () => {
    const first = await startTestServer({ providers: [fakeProvider('fake')] });
    const folder = await tempDir('ats-hello-open-');
    const project = await first.json('/projects', {
      body: { name: 'open', source: { type: 'local_path', path: folder, hostId: first.server.hostId } },
    });
    const thread = await first.json('/threads', { body: { projectId: project.id, provider: 'fake', model: 'fake/model', title: 'open' } });
    // A run streaming from elsewhere (the intake) when the server stops: its turn stays open in the rows.
    const socket = await first.intake();
    await rpc(socket, agentStart(thread.id, 1));
    socket.close();
    await first.close({ keepData: true });

    const restarted = fakeProvider('fake');
    const second = await startTestServer({ dataDir: first.dataDir, providers: [restarted] });
    try {
      const completed = await eventually(async () => {
        const rows: Array<{ type: string; data: any }> = await second.json(`/threads/${thread.id}/events`);
        return rows.find((row) => row.type === 'turn/completed');
      }, 'the dead turn closed at the hello');
      expect(completed.data.status).to.equal('interrupted');
      // The turn was an earlier process's: nothing is left to run, so no agent started.
      expect(restarted.opened).to.have.length(0);
    } finally {
      await second.close();
    }
  });
});
