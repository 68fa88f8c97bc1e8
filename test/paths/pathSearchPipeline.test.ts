import { expect } from 'chai';
import { TestScheduler } from 'rxjs/testing';
import { searchPaths$ } from '../../pipelines/path-search';
import type { Listing, WalkEntry } from '../../src/paths/walk/walkEntry';

const entry = (kind: WalkEntry['kind'], path: string): WalkEntry => ({ kind, path, name: path.slice(path.lastIndexOf('/') + 1) });

const scheduler = () =>
  new TestScheduler((actual, expected) => {
    expect(actual).to.deep.equal(expected);
  });

describe('pipelines/path-search', () => {
  it('orders the stages: kinds, then ranking over the whole walk, then truncation', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const listing: Listing = {
        root: '/repo',
        entries: [entry('file', 'a/workflows.md'), entry('directory', '.github/workflows'), entry('file', 'x.ts')],
      };
      // The injected walk emits once when the whole tree has been read (rule 5).
      const walk$ = cold('---w|', { w: listing });
      const result$ = searchPaths$(walk$, { query: 'workflows', limit: 1, includeFiles: false, includeDirectories: true });
      expectObservable(result$).toBe('---r|', {
        r: {
          paths: [{ kind: 'directory', path: '.github/workflows', name: 'workflows', score: 604, positions: [0, 1, 2, 3, 4, 5, 6, 7, 8] }],
          truncated: false,
        },
      });
    });
  });

  it('passes a walk error through (root missing)', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const walk$ = cold<Listing>('-#', undefined, new Error('root not found'));
      expectObservable(searchPaths$(walk$, { limit: 5, includeFiles: true, includeDirectories: true })).toBe(
        '-#',
        undefined,
        new Error('root not found'),
      );
    });
  });
});
