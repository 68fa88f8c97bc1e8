import { map, type OperatorFunction } from 'rxjs';
import type { ListPathsResult } from '../../protocol/hostFiles';
import type { Ranking } from './rankByQuery';

/**
 * Keeps the first `limit` entries of a ranking and shapes them as spec 2.7 entries; `truncated` is true
 * only when entries were dropped (rule 5).
 *
 * ```
 * ranking:  --R--|        (5 hits)
 * truncateTo(3)
 * result:   --P--|        ({ paths: 3 entries, truncated: true })
 * ```
 */
export function truncateTo(limit: number): OperatorFunction<Ranking, ListPathsResult> {
  return map((ranking) => {
    const kept = ranking.top(limit);
    const paths = kept.map((hit) => ({
      kind: hit.entry.kind,
      path: hit.entry.path,
      name: hit.entry.name,
      score: hit.score,
      positions: ranking.positionsOf(hit),
    }));
    return { paths, truncated: ranking.count > limit };
  });
}
