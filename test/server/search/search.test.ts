import { expect } from 'chai';
import type { ConfigInput } from '../../../src/config/serverConfig';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { describeWithPostgres } from '../../helpers/store/postgresDatabase';
import { markedWords, search, threadWith } from './searchRows';

/** The behaviours both engines share, run on each. */
function searchAcrossThreads(engine: string, configOf: () => ConfigInput) {
  describe(`search across threads on ${engine} (issue 31)`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer({ config: configOf() });
    });
    after(() => t.close());

    it('finds a word in what the user sent, in the agent’s answer and in a command line, each at its row', async () => {
      const thread = await threadWith(t, { title: 'Release prep' }, [
        { user: 'please check the zebrafish pipeline', agent: 'The build is green now.', command: 'npm run build' },
        { user: 'and the docs?', agent: 'The zebrafish docs are fine.', command: 'grep -r zebrafish docs' },
      ]);
      const { hits } = await search(t, 'q=zebrafish');
      expect(hits.map((hit) => [hit.threadId, hit.seq, hit.kind]).sort()).to.deep.equal(
        [
          [thread.id, 2, 'user'],
          [thread.id, 16, 'agent'],
          [thread.id, 12, 'command'],
        ].sort(),
      );
      for (const hit of hits) {
        expect(hit.title).to.equal('Release prep');
        expect(markedWords(hit)).to.deep.equal(['zebrafish']);
      }
    });

    it('marks every query word in a short excerpt of a long answer, and needs every word', async () => {
      const long = `${'filler words here '.repeat(40)}the okapi sleeps under the baobab tree ${'more filler after '.repeat(40)}`;
      const thread = await threadWith(t, { title: 'Long answer' }, [{ user: 'tell me', agent: long, command: 'true' }]);
      const { hits } = await search(t, `q=${encodeURIComponent('Baobab okapi')}`);
      expect(hits.map((hit) => hit.threadId)).to.deep.equal([thread.id]);
      const [hit] = hits;
      expect(hit!.excerpt.length).to.be.below(220);
      expect(hit!.excerpt.startsWith('…') && hit!.excerpt.endsWith('…')).to.equal(true);
      expect(markedWords(hit!)).to.deep.equal(['okapi', 'baobab']);
      expect((await search(t, 'q=okapi+narwhal')).hits).to.deep.equal([]);
    });

    it('finds a thread by its title, before its rows', async () => {
      const thread = await threadWith(t, { title: 'Quokka migration plan' }, [{ user: 'quokka again', agent: 'ok', command: 'ls' }]);
      const { hits } = await search(t, 'q=quokka');
      expect(hits.map((hit) => [hit.threadId, hit.seq, hit.kind])).to.deep.equal([
        [thread.id, 0, 'title'],
        [thread.id, 2, 'user'],
      ]);
      expect(markedWords(hits[0]!)).to.deep.equal(['Quokka']);
    });

    it('keeps to one project when asked', async () => {
      const inA = await threadWith(t, { title: 'a', projectId: 'proj_one' }, [{ user: 'axolotl', agent: 'x', command: 'x' }]);
      const inB = await threadWith(t, { title: 'b', projectId: 'proj_two' }, [{ user: 'axolotl', agent: 'x', command: 'x' }]);
      expect((await search(t, 'q=axolotl')).hits.map((hit) => hit.threadId).sort()).to.deep.equal([inA.id, inB.id].sort());
      expect((await search(t, 'q=axolotl&projectId=proj_two')).hits.map((hit) => hit.threadId)).to.deep.equal([inB.id]);
    });

    it('never finds a deleted thread, and finds an archived one only with archived=true', async () => {
      const deleted = await threadWith(t, { title: 'd' }, [{ user: 'pangolin', agent: 'x', command: 'x' }]);
      const archived = await threadWith(t, { title: 'r' }, [{ user: 'pangolin', agent: 'x', command: 'x' }]);
      expect((await t.api(`/threads/${deleted.id}`, { method: 'DELETE' })).status).to.equal(204);
      await t.json(`/threads/${archived.id}`, { method: 'PATCH', body: { archived: true } });
      expect((await search(t, 'q=pangolin')).hits).to.deep.equal([]);
      expect((await search(t, 'q=pangolin&archived=true')).hits.map((hit) => hit.threadId)).to.deep.equal([archived.id]);
      // Its entries are gone from the index too, not just hidden.
      const left = await t.server.search.search({ words: ['pangolin'], threadIds: [deleted.id], offset: 0, limit: 10 });
      expect(left).to.deep.equal([]);
    });

    it('pages with the cursor through every hit once', async () => {
      const turns = Array.from({ length: 7 }, (_, i) => ({
        user: `capybara number ${i}`,
        agent: 'capybara seen',
        command: `echo capybara${i}`,
      }));
      await threadWith(t, { title: 'pages' }, turns);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: Awaited<ReturnType<typeof search>> = await search(t, `q=capybara&limit=4${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...page.hits.map((hit) => `${hit.threadId}:${hit.seq}`));
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(seen).to.have.length(14);
      expect(new Set(seen).size).to.equal(14);
      expect(pages).to.equal(4);
      const bad = await t.api('/search?q=capybara&cursor=nonsense');
      expect([bad.status, ((await bad.json()) as { code: string }).code]).to.deep.equal([400, 'invalid_cursor']);
    });
  });
}

searchAcrossThreads('the embedded store', () => ({}));
describeWithPostgres('search on PostgreSQL (issue 31)', (db) => searchAcrossThreads('PostgreSQL', () => ({ databaseUrl: db().url })));
