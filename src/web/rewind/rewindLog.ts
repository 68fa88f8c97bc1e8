import { computed, signal } from '@preact/signals';
import type { StoredThreadEvent } from '../api/types';

/** One revert the rows say is in force: the turn it went back before, its stored state, the turns it undid. */
export interface RevertInForce {
  turnId: string;
  snapshotRef: string;
  undoneTurnIds: string[];
}

/**
 * A thread's reverts as its `thread/reverted` and `thread/unreverted` rows leave them (issue 39): a revert
 * pushes, an unrevert takes its revert off by `snapshotRef`. Rows are never deleted, so a turn is shown dimmed
 * while a revert in force undid it, and the newest revert is the one "Undo revert" takes back.
 */
export class RewindLog {
  readonly reverts = signal<RevertInForce[]>([]);
  readonly undone = computed(() => new Set(this.reverts.value.flatMap((revert) => revert.undoneTurnIds)));
  /** The revert "Undo revert" takes back: the newest, until a turn runs after it (the host then refuses). */
  readonly newest = computed(() => (this.finalFrom.value >= this.reverts.value.length ? null : (this.reverts.value.at(-1) ?? null)));
  /** How many of the reverts a later turn made final (opencode's rule: a new message commits a revert). */
  private readonly finalFrom = signal(0);

  /** A turn started: every revert so far is final. */
  turnStarted(): void {
    if (this.finalFrom.value !== this.reverts.value.length) this.finalFrom.value = this.reverts.value.length;
  }

  /** True when the row was one of rewind's (the caller then has nothing more to do with it). */
  apply(row: StoredThreadEvent): boolean {
    if (row.type === 'thread/reverted') {
      const { turnId, snapshotRef, undoneTurnIds } = row.data;
      this.reverts.value = [...this.reverts.value, { turnId, snapshotRef, undoneTurnIds }];
      return true;
    }
    if (row.type === 'thread/unreverted') {
      this.reverts.value = this.reverts.value.filter((revert) => revert.snapshotRef !== row.data.snapshotRef);
      return true;
    }
    return false;
  }

  /** Earlier rows' reverts go first (a backlog page read backwards), unless a later row undid them already. */
  prepend(earlier: RewindLog): void {
    this.finalFrom.value += earlier.reverts.value.length;
    this.reverts.value = [...earlier.reverts.value, ...this.reverts.value];
  }
}
