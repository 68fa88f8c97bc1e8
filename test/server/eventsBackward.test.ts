import { expect } from 'chai';
import { from, lastValueFrom } from 'rxjs';
import type { NewThreadEvent } from '../../src/store/eventStore';
import { fakeProvider } from '../helpers/fakes/provider';
import { startTestServer, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

describe('GET /threads/:id/events backwards: beforeSeq and tail=true, in ascending order (issue 31)', () => {
  let t: TestServer;
  let empty: string;
  let full: string;
  const ROWS = 25;
  const tempDir = suiteTempDirs();

  before(async () => {
    t = await startTestServer({ providers: [fakeProvider('pi')] });
    const folder = await tempDir('ats-events-backward-');
    const project = await t.json('/projects', {
      body: { name: 'p', source: { type: 'local_path', path: folder, hostId: t.server.hostId } },
    });
    const create = async (title: string) =>
      (await t.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'fake/model', title } })).id as string;
    [empty, full] = [await create('empty'), await create('full')];
    const rows: NewThreadEvent[] = Array.from({ length: ROWS }, (_, i) => ({
      threadId: full,
      type: 'item/agentMessage/delta',
      turnId: 'turn-1',
      scope: { kind: 'turn', turnId: 'turn-1' },
      data: { providerThreadId: full, itemId: 'item-1', delta: `word${i} ` },
    }));
    await lastValueFrom(from(t.server.store.append(rows)));
  });
  after(() => t.close());

  const seqs = async (threadId: string, query: string) =>
    ((await t.json(`/threads/${threadId}/events?${query}`)) as { seq: number }[]).map((row) => row.seq);
  const range = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, i) => first + i);

  it('tail=true gives the last rows; beforeSeq pages back to seq 1 with no row twice and none left out', async () => {
    expect(await seqs(full, 'tail=true&limit=10')).to.deep.equal(range(16, 25));
    expect(await seqs(full, 'beforeSeq=16&limit=10')).to.deep.equal(range(6, 15));
    expect(await seqs(full, 'beforeSeq=6&limit=10')).to.deep.equal(range(1, 5));
    expect(await seqs(full, 'beforeSeq=1&limit=10')).to.deep.equal([]);
  });

  it('boundaries: an empty thread, exactly one page, the row before seq 2, a cursor past the end', async () => {
    expect(await seqs(empty, 'tail=true')).to.deep.equal([]);
    expect(await seqs(empty, 'beforeSeq=1')).to.deep.equal([]);
    expect(await seqs(empty, 'beforeSeq=50&limit=5')).to.deep.equal([]);
    expect(await seqs(full, `tail=true&limit=${ROWS}`)).to.deep.equal(range(1, ROWS));
    expect(await seqs(full, `tail=true&limit=${ROWS + 1}`)).to.deep.equal(range(1, ROWS));
    expect(await seqs(full, 'beforeSeq=2&limit=10')).to.deep.equal([1]);
    expect(await seqs(full, 'beforeSeq=1000&limit=3')).to.deep.equal([23, 24, 25]);
    // Forward reads are what they were.
    expect(await seqs(full, 'afterSeq=20&limit=3')).to.deep.equal([21, 22, 23]);
    expect(await seqs(full, 'limit=2')).to.deep.equal([1, 2]);
  });

  it('two cursors at once, or a beforeSeq below 1, are a 400 with a code that says so', async () => {
    for (const query of ['afterSeq=3&beforeSeq=5', 'afterSeq=3&tail=true', 'beforeSeq=5&tail=true']) {
      const response = await t.api(`/threads/${full}/events?${query}`);
      expect(response.status, query).to.equal(400);
      expect((await response.json()).code, query).to.equal('conflicting_cursors');
    }
    expect((await t.api(`/threads/${full}/events?beforeSeq=0`)).status).to.equal(400);
  });

  it('the OpenAPI document lists beforeSeq and tail', async () => {
    const document = await t.json('/openapi.json');
    const names = document.paths['/api/v1/threads/{id}/events'].get.parameters.map((parameter: { name: string }) => parameter.name);
    expect(names).to.include.members(['afterSeq', 'beforeSeq', 'tail', 'limit']);
  });
});
