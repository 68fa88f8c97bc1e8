import { expect } from 'chai';
import { openSse } from '../helpers/server/sse';
import { projectWithThread, startTestServer, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

describe('server: numbers in a query string are decimal digits only', () => {
  let t: TestServer;
  let threadId: string;
  let projectId: string;

  before(async () => {
    t = await startTestServer();
    const created = await projectWithThread(t, await tempDir('ats-query-'));
    threadId = created.thread.id;
    projectId = created.project.id;
  });
  after(() => t.close());

  const tempDir = suiteTempDirs();

  async function expectInvalidQuery(response: Response, field: string, label: string): Promise<void> {
    const text = await response.text();
    expect(response.status, `${label}: ${text}`).to.equal(400);
    const problem = JSON.parse(text);
    expect(problem.code, label).to.equal('invalid_query');
    expect(problem.detail, label).to.contain(field);
  }

  const notDecimal = ['0x10', '', '%203', '3%20', '1e1', '+3', '-0', '3.0', '0b1', 'Infinity', '9007199254740993'];

  for (const value of notDecimal) {
    it(`GET /threads/:id/events refuses afterSeq=${value} and limit=${value} with 400 invalid_query`, async () => {
      await expectInvalidQuery(await t.api(`/threads/${threadId}/events?afterSeq=${value}`), 'afterSeq', `afterSeq=${value}`);
      await expectInvalidQuery(await t.api(`/threads/${threadId}/events?limit=${value}`), 'limit', `limit=${value}`);
    });
  }

  it('the SSE stream refuses afterSeq=0x10 and a Last-Event-ID of 0x10 with 400', async () => {
    const auth = { authorization: `Bearer ${t.server.token}` };
    const byQuery = await openSse(`${t.server.url}/api/v1/threads/${threadId}/events/stream?afterSeq=0x10`, auth);
    expect(byQuery.status).to.equal(400);
    byQuery.close();
    const byHeader = await openSse(`${t.server.url}/api/v1/threads/${threadId}/events/stream`, { ...auth, 'last-event-id': '0x10' });
    expect(byHeader.status).to.equal(400);
    byHeader.close();
  });

  it('the paths routes refuse limit=0x1 with 400 invalid_query', async () => {
    await expectInvalidQuery(await t.api(`/projects/${projectId}/paths?limit=0x1`), 'limit', 'limit=0x1');
  });

  it('takes plain decimals, leading zeros included', async () => {
    expect(await t.json(`/threads/${threadId}/events?afterSeq=007&limit=010`)).to.deep.equal([]);
    expect((await t.json(`/projects/${projectId}/paths?limit=01`)).paths).to.have.length.at.most(1);
  });
});
