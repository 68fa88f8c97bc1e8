import { expect } from 'chai';
import path from 'node:path';
import { openSearchDatabase, RANK_WINDOW_ROWS, type SearchDatabase } from '../../../src/store/search/sqlite/searchDatabase';
import type { SearchDoc } from '../../../src/store/search/searchableText';
import { makeTempDir } from '../../helpers/temp/dir';

describe('the embedded search index past one ranking window (issue 31)', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let db: SearchDatabase;
  const rows = 2 * RANK_WINDOW_ROWS + 300;
  before(async () => {
    temp = await makeTempDir('search-db-');
    db = openSearchDatabase(path.join(temp.dir, 'index.sqlite'), () => {});
    // Every row holds "koala"; lengths vary so each window is reordered.
    const docs: SearchDoc[] = Array.from({ length: rows }, (_, i) => ({
      threadId: i % 2 ? 'thr_odd' : 'thr_even',
      seq: i + 1,
      kind: 'agent',
      text: `koala ${'filler '.repeat(i % 7)}row${i}`,
    }));
    db.add(docs, [
      ['thr_odd', rows],
      ['thr_even', rows],
    ]);
  });
  after(async () => {
    db.close();
    await temp.remove();
  });

  it('pages through every matching row once, across windows, shorter rows first within the newest window', () => {
    const seen: string[] = [];
    for (let offset = 0; offset < rows + 50; offset += 70) {
      seen.push(
        ...db
          .search({ words: ['koala'], threadIds: ['thr_odd', 'thr_even'], offset, limit: 70 })
          .map((hit) => `${hit.threadId}:${hit.seq}`),
      );
    }
    expect(seen).to.have.length(rows);
    expect(new Set(seen).size).to.equal(rows);
    const first = db.search({ words: ['koala'], threadIds: ['thr_odd', 'thr_even'], offset: 0, limit: 3 });
    // The newest shortest rows: no filler, the latest seqs with i % 7 === 0.
    expect(first.map((hit) => hit.text.split(' ').length)).to.deep.equal([2, 2, 2]);
    expect(first[0]!.seq).to.be.above(rows - 7);
  });

  it('keeps to the threads asked for, and finds nothing for threads it never indexed', () => {
    const odd = db.search({ words: ['koala'], threadIds: ['thr_odd'], offset: 0, limit: 100 });
    expect(odd).to.have.length(100);
    expect(new Set(odd.map((hit) => hit.threadId))).to.deep.equal(new Set(['thr_odd']));
    expect(db.search({ words: ['koala'], threadIds: ['thr_unknown'], offset: 0, limit: 10 })).to.deep.equal([]);
  });

  it('needs every word, and forgets a removed thread', () => {
    expect(
      db.search({ words: ['koala', 'row7'], threadIds: ['thr_odd', 'thr_even'], offset: 0, limit: 10 }).map((hit) => hit.seq),
    ).to.deep.equal([8]);
    db.removeThread('thr_odd');
    expect(db.search({ words: ['koala', 'row7'], threadIds: ['thr_odd', 'thr_even'], offset: 0, limit: 10 })).to.deep.equal([]);
    expect([...db.heads().keys()]).to.deep.equal(['thr_even']);
  });
});
