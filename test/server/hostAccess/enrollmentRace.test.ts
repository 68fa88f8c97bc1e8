import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { describeWithPostgres } from '../../helpers/store/postgresDatabase';
import { enrollmentCode } from './daemons';
import { helloAs } from './rawLink';

type Answer = { status: number; body: { code?: string; credential?: string } };

/** `racers` codes traded at the same moment for one host id, spread over `servers` (replicas of one registry). */
async function race(servers: TestServer[], hostId: string, racers: number): Promise<{ codes: string[]; answers: Answer[] }> {
  const codes = await Promise.all(
    Array.from({ length: racers }, async (_, i) => (await enrollmentCode(servers[i % servers.length]!)).code),
  );
  const answers = await Promise.all(
    codes.map(async (code, i) => {
      const response = await servers[i % servers.length]!.api('/hosts/enroll', { auth: false, body: { code, hostId } });
      return { status: response.status, body: await response.json() };
    }),
  );
  return { codes, answers };
}

/** Exactly one credential came out, it attaches, and every other code was left unused (it still enrolls a host). */
async function expectOneCredential(servers: TestServer[], hostId: string, { codes, answers }: Awaited<ReturnType<typeof race>>) {
  const statuses = answers.map((answer) => answer.status).sort();
  expect(statuses, JSON.stringify(answers.map((answer) => answer.body.code))).to.deep.equal([201, ...Array(answers.length - 1).fill(409)]);
  for (const answer of answers) if (answer.status === 409) expect(answer.body.code).to.equal('host_already_enrolled');
  const credential = answers.find((answer) => answer.status === 201)!.body.credential!;
  // On one server: replicas read one registry, and a second link of the host at once would be a duplicate (4005).
  const linked = await helloAs(servers.at(-1)!.server.url, credential, hostId);
  expect(linked, 'the credential attaches').to.have.property('attached', true);
  if ('socket' in linked) {
    linked.socket.close();
    await linked.closed;
  }
  const unused = codes.filter((_, i) => answers[i]!.status === 409);
  for (const [i, code] of unused.entries()) {
    const again = await servers[i % servers.length]!.api('/hosts/enroll', { auth: false, body: { code, hostId: `${hostId}_${i}` } });
    expect(again.status, `a losing code enrolls another host id`).to.equal(201);
    await again.body?.cancel();
  }
}

/** The same races, on one server's embedded registry or on replicas of one PostgreSQL registry. */
function racingEnrollments(servers: () => TestServer[]) {
  for (const racers of [2, 10]) {
    it(`${racers} codes at once for one new host id: exactly one credential, the rest 409 with their codes unused`, async () => {
      const hostId = `host_race${racers}_${randomBytes(4).toString('hex')}`;
      await expectOneCredential(servers(), hostId, await race(servers(), hostId, racers));
    });
  }

  it('10 codes at once for a removed host id: exactly one credential', async () => {
    const hostId = `host_racegone_${randomBytes(4).toString('hex')}`;
    const [first] = servers();
    const enrolled = await first!.api('/hosts/enroll', { auth: false, body: { code: (await enrollmentCode(first!)).code, hostId } });
    expect(enrolled.status).to.equal(201);
    await enrolled.body?.cancel();
    expect((await first!.api(`/hosts/${hostId}`, { method: 'DELETE' })).status).to.equal(204);
    await expectOneCredential(servers(), hostId, await race(servers(), hostId, 10));
  });
}

describe('hosts: one code, one host id, one credential, however enrollments race (issue 37, embedded registry)', function () {
  this.timeout(120_000);
  let t: TestServer;
  before(async () => (t = await startTestServer({ config: { agentProviders: 'none' } })));
  after(async () => t?.close());
  racingEnrollments(() => [t]);
});

describeWithPostgres('hosts: one code, one host id, one credential, across two replicas of one PostgreSQL registry (issue 37)', (db) => {
  let a: TestServer;
  let b: TestServer;
  before(async function () {
    this.timeout(60_000);
    const config = { databaseUrl: db().url, agentProviders: 'none', replicaHeartbeatMs: 200, replicaDeadAfterMs: 1_000 };
    a = await startTestServer({ config });
    b = await startTestServer({ config: { ...config, embeddedHost: '0' } });
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });
  describe('', function () {
    this.timeout(120_000);
    racingEnrollments(() => [a, b]);
  });
});
