/**
 * Which indexed threads a query keeps to, said the shorter way: every one (`all`), none of them (`none`: no
 * asked thread has rows indexed), the ones to `keep`, or the ones to `drop` (archived, of other projects,
 * deleted but not yet removed). `keys` maps each indexed thread's id to its key in the index.
 */
export type ThreadFilter = 'all' | 'none' | { keep: number[]; drop?: undefined } | { drop: number[]; keep?: undefined };

export function threadFilterOf(threadIds: readonly string[], keys: ReadonlyMap<string, number>): ThreadFilter {
  const asked = new Set(threadIds);
  const keep: number[] = [];
  const drop: number[] = [];
  for (const [threadId, key] of keys) (asked.has(threadId) ? keep : drop).push(key);
  if (keep.length === 0) return 'none';
  if (drop.length === 0) return 'all';
  return keep.length <= drop.length ? { keep } : { drop };
}
