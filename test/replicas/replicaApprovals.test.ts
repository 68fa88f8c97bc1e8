import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { askingProvider } from '../helpers/fakes/askingProvider';
import { startTestServer, type TestServer } from '../helpers/server/harness';
import { completedTurns, eventsUntil } from '../helpers/server/threadRows';
import { describeWithPostgres } from '../helpers/store/postgresDatabase';

describeWithPostgres('approvals through a replica (two servers on one PostgreSQL)', (db) => {
  let a: TestServer;
  let b: TestServer;
  let folder: string;
  const provider = askingProvider();
  const replicaConfig = () => ({ databaseUrl: db().url, replicaHeartbeatMs: 200, replicaDeadAfterMs: 1_000, hostReconnectGraceMs: 60_000 });

  before(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'replica-approvals-'));
    a = await startTestServer({ config: replicaConfig(), providers: [provider] });
    b = await startTestServer({ config: { ...replicaConfig(), embeddedHost: '0' } });
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('a question of an agent on A is seen and answered on B, once; A and B agree on the rows', async () => {
    const project = await b.json('/projects', {
      body: { name: 'p', source: { type: 'local_path', path: folder, hostId: a.server.hostId } },
    });
    const thread = await b.json('/threads', {
      body: { projectId: project.id, provider: provider.id, model: 'fake/model', title: 't', permissionMode: 'ask' },
    });
    await b.json(`/threads/${thread.id}/messages`, { body: { prompt: 'rm -rf build' } });
    const asked = await eventsUntil(b, thread.id, (events) => events.some((event) => event.type === 'approval/requested'));
    const question = asked.find((event) => event.type === 'approval/requested')!;
    expect((await b.json(`/threads/${thread.id}`)).runtime).to.deep.include({
      activity: 'waiting-for-approval',
      pendingApprovalIds: [question.data.approvalId],
    });

    const answer = await b.json(`/threads/${thread.id}/approvals/${question.data.approvalId}`, { body: { optionId: 'allow-once' } });
    expect(answer).to.deep.include({ optionKind: 'allow_once', decidedBy: 'user' });
    expect((await a.api(`/threads/${thread.id}/approvals/${question.data.approvalId}`, { body: { optionId: 'reject' } })).status).to.equal(
      409,
    );
    expect((await b.api(`/threads/${thread.id}/approvals/apr_unknown`, { body: { optionId: 'reject' } })).status).to.equal(404);

    const onB = await eventsUntil(b, thread.id, completedTurns(1));
    expect(onB.filter((event) => event.type === 'approval/resolved').map((event) => event.data.decidedBy)).to.deep.equal(['user']);
    expect(await a.json(`/threads/${thread.id}/events?limit=1000`)).to.deep.equal(onB);
    expect(provider.decisions.map(({ decision }) => decision)).to.deep.equal([
      { outcome: 'selected', optionId: 'allow-once', optionKind: 'allow_once', decidedBy: 'user' },
    ]);
  });
});
