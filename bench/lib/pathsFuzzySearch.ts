import FuzzySearch from 'fuzzy-search';
import { median, timeIt } from './pathsStats';

/**
 * The `fuzzy-search` package (named on the design card) on the same names and queries as our scorer, so
 * the README's "why not fuzzy-search" rests on numbers measured in the same run: its time per query, what
 * one of its results holds, and how it orders `index.ts` and `reindex.ts` for `index`.
 */
export interface FuzzySearchReport {
  /** Median time per query, sorted results (`sort: true`, its ranking mode). */
  medianMs: number;
  worstMs: number;
  worstQuery: string;
  /** Keys of one result item: the input object as is, nothing about the match. */
  resultKeys: string[];
  /** `isMatch` values (lower is better) of `index.ts` and `reindex.ts` for `index`. */
  indexScore: number;
  reindexScore: number;
  /** What `search('index')` returns over `['reindex.ts', 'index.ts']`. */
  orderForIndex: string[];
}

interface Named {
  name: string;
  path: string;
}

export async function measureFuzzySearch(items: Named[], queries: string[], runs: number): Promise<FuzzySearchReport> {
  // Like our ranker: names for plain queries, relative paths for queries with `/`.
  const byName = new FuzzySearch(items, ['name'], { sort: true });
  const byPath = new FuzzySearch(items, ['path'], { sort: true });
  const perQuery: Array<[string, number]> = [];
  for (const query of queries) {
    const searcher = query.includes('/') ? byPath : byName;
    const times: number[] = [];
    for (let run = 0; run < runs; run += 1) times.push((await timeIt(() => searcher.search(query))).ms);
    perQuery.push([query, median(times)]);
  }
  const [worstQuery, worstMs] = perQuery.reduce((a, b) => (b[1] > a[1] ? b : a));
  const [first] = byName.search('index');
  return {
    medianMs: median(perQuery.map(([, time]) => time)),
    worstMs,
    worstQuery,
    resultKeys: first === undefined ? [] : Object.keys(first),
    indexScore: FuzzySearch.isMatch('index.ts', 'index', false),
    reindexScore: FuzzySearch.isMatch('reindex.ts', 'index', false),
    orderForIndex: new FuzzySearch(['reindex.ts', 'index.ts'], [], { sort: true }).search('index'),
  };
}
