import { expect } from 'chai';
import { fakeProvider } from '../../helpers/fakes/provider';
import { archiveRace, disagreeing } from '../../helpers/server/archiveRace';
import { projectWithThread, startTestServer, type TestServer } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

describe('server: one owner per thread (issue 37), embedded store', () => {
  let t: TestServer;
  const tempDir = suiteTempDirs();

  before(async () => {
    t = await startTestServer({ providers: [fakeProvider('pi')] });
  });
  after(() => t.close());

  it('20 rounds of 20 concurrent archive toggles: the record and the last thread/updated row agree after every round', async function () {
    this.timeout(60_000); // 400 PATCHes, each of a round waiting for the one before it
    const { thread } = await projectWithThread(t, await tempDir('ats-archive-race-'));
    const rounds = await archiveRace([t], thread.id, 20, 20);
    expect(disagreeing(rounds)).to.deep.equal([]);
  });
});
