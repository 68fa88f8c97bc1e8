import { expect } from 'chai';
import { of } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { keepKinds } from '../../src/paths/rank/keepKinds';
import { rankByQuery } from '../../src/paths/rank/rankByQuery';
import { truncateTo } from '../../src/paths/rank/truncateTo';
import type { Listing, WalkEntry } from '../../src/paths/walk/walkEntry';

const file = (path: string): WalkEntry => ({ kind: 'file', path, name: path.slice(path.lastIndexOf('/') + 1) });
const dir = (path: string): WalkEntry => ({ kind: 'directory', path, name: path.slice(path.lastIndexOf('/') + 1) });
const listing = (...entries: WalkEntry[]): Listing => ({ root: '/r', entries });
const scheduler = () =>
  new TestScheduler((actual, expected) => {
    expect(actual).to.deep.equal(expected);
  });

describe('path search stages', () => {
  it('keepKinds drops the kinds a request left out, one listing per listing', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-b|', { a: listing(file('x'), dir('d')), b: listing(dir('e')) });
      expectObservable(source.pipe(keepKinds({ includeFiles: false, includeDirectories: true }))).toBe('-a-b|', {
        a: listing(dir('d')),
        b: listing(dir('e')),
      });
    });
  });

  it('rankByQuery then truncateTo: no query lists everything path-ascending with score 0 and no positions', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a|', { a: listing(file('b/z.ts'), file('a.ts'), dir('b')) });
      expectObservable(source.pipe(rankByQuery(undefined), truncateTo(10))).toBe('-r|', {
        r: {
          paths: [
            { kind: 'file', path: 'a.ts', name: 'a.ts', score: 0, positions: [] },
            { kind: 'directory', path: 'b', name: 'b', score: 0, positions: [] },
            { kind: 'file', path: 'b/z.ts', name: 'z.ts', score: 0, positions: [] },
          ],
          truncated: false,
        },
      });
    });
  });

  it('rule 5: ranks the whole listing before truncating, and says when entries were dropped', () => {
    scheduler().run(({ cold, expectObservable }) => {
      // The best match comes last from the "disk"; truncation to 1 must still return it.
      const source = cold('-a|', { a: listing(file('reindex.ts'), file('x/indexer.ts'), file('deep/er/index.ts')) });
      const result$ = source.pipe(rankByQuery('index'), truncateTo(1));
      expectObservable(result$).toBe('-r|', {
        r: {
          paths: [{ kind: 'file', path: 'deep/er/index.ts', name: 'index.ts', score: 172, positions: [0, 1, 2, 3, 4] }],
          truncated: true,
        },
      });
    });
  });

  it('truncateTo reports truncated false when nothing was dropped', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a|', { a: listing(file('a'), file('b')) });
      expectObservable(source.pipe(rankByQuery(''), truncateTo(2))).toBe('-r|', {
        r: {
          paths: [
            { kind: 'file', path: 'a', name: 'a', score: 0, positions: [] },
            { kind: 'file', path: 'b', name: 'b', score: 0, positions: [] },
          ],
          truncated: false,
        },
      });
    });
  });

  it('a tie on score goes to the shorter name even when its path sorts later', () => {
    // Both names score the same for `x` (word start, name prefix); only the tiebreak orders them.
    const result = (entries: WalkEntry[]) => {
      let paths: string[] = [];
      of(listing(...entries))
        .pipe(rankByQuery('x'), truncateTo(10))
        .subscribe((ranked) => {
          expect(ranked.paths[0].score).to.equal(ranked.paths[1].score);
          paths = ranked.paths.map((entry) => entry.path);
        });
      return paths;
    };
    expect(result([file('a/x-ab.ts'), file('b/x-a.ts')])).to.deep.equal(['b/x-a.ts', 'a/x-ab.ts']);
    expect(result([file('b/x-a.ts'), file('a/x-ab.ts')])).to.deep.equal(['b/x-a.ts', 'a/x-ab.ts']);
  });

  it('equal scores fall back to the shorter name, then the path, whatever the input order', () => {
    const entries = [file('b/ab.ts'), file('a/ab.ts'), file('abc.ts'), file('ab.ts')];
    const orders = [entries, [...entries].reverse(), [entries[2], entries[0], entries[3], entries[1]]];
    const results = orders.map((order) => {
      let paths: string[] = [];
      of(listing(...order))
        .pipe(rankByQuery('ab'), truncateTo(10))
        .subscribe((result) => (paths = result.paths.map((entry) => entry.path)));
      return paths;
    });
    expect(results[0]).to.deep.equal(['a/ab.ts', 'ab.ts', 'b/ab.ts', 'abc.ts']);
    expect(results[1]).to.deep.equal(results[0]);
    expect(results[2]).to.deep.equal(results[0]);
  });
});
