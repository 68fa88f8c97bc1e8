/** How many answered approval ids a thread remembers, so a late second answer reads `already-answered`. */
export const RECENT_APPROVAL_IDS = 256;

/** The last `limit` ids added; the oldest is forgotten first. */
export interface RecentIds {
  add(id: string): void;
  has(id: string): boolean;
}

export function recentIds(limit = RECENT_APPROVAL_IDS): RecentIds {
  const ids = new Set<string>();
  return {
    add(id) {
      ids.add(id);
      // A Set iterates in insertion order: its first value is the oldest.
      if (ids.size > limit) ids.delete(ids.values().next().value!);
    },
    has: (id) => ids.has(id),
  };
}
