/**
 * The steps of a thread delete (src/server/threads/deleteThread.ts) at which the delete crash test kills the
 * server, in the order they run. Before the tombstone the thread must come back whole; from it on, gone.
 */
export const DELETE_STEPS = [
  'before-tombstone',
  'tombstoned',
  'host-told',
  'readers-told',
  /** Embedded store only: the thread file unlinked, the unlink not yet synced, the index not yet told. */
  'store-unlinked',
  'store-deleted',
  'record-removed',
] as const;

export type DeleteStep = (typeof DELETE_STEPS)[number];

export function isDeleteStep(value: string): value is DeleteStep {
  return (DELETE_STEPS as readonly string[]).includes(value);
}
