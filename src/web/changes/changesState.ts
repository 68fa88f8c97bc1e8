import { computed, signal, type ReadonlySignal, type Signal } from '@preact/signals';
import { messageOf } from '../api/http';
import { readDiff } from './api';
import { diffRows, type DiffLayout, type DiffRows } from './diffRows';
import { createReviewDrafts, type ReviewDrafts } from './reviewDrafts';
import type { CommentTarget, DiffScope, GitDiff, ReviewComment } from './types';

/**
 * What the Changes view shows: nothing yet, the diff being read, the diff (`partial`: its first screen while
 * the rest is read), or why it could not be read.
 */
export type DiffLoad =
  { kind: 'idle' } | { kind: 'loading' } | { kind: 'loaded'; diff: GitDiff; partial?: boolean } | { kind: 'failed'; message: string };

/**
 * One open thread's review (issue 38): whether the Changes view is open, its scope and layout, the diff read
 * for them, the line a comment is being written on, and the drafts. Made by the thread view, shared by the
 * Changes view and the prompt box (its chips), dropped with the view.
 */
export interface ChangesState {
  threadId: string;
  open: Signal<boolean>;
  /** The scopes this thread offers: a checkout thread has no branch of its own. */
  scopes: Signal<DiffScope[]>;
  scope: ReadonlySignal<DiffScope>;
  layout: Signal<DiffLayout>;
  load: ReadonlySignal<DiffLoad>;
  rows: ReadonlySignal<DiffRows>;
  /** The line a comment is being written on, or null. */
  target: Signal<CommentTarget | null>;
  /** The draft being edited (a chip chosen), or null. */
  editing: Signal<ReviewComment | null>;
  drafts: ReviewDrafts;
  toggle(): void;
  chooseScope(scope: DiffScope): void;
  reload(): Promise<void>;
}

const NO_ROWS: DiffRows = { rows: [], fileStarts: [] };

/** How often a diff still arriving is shown again with the files read since (its first files show at once). */
const SHOW_EVERY_MS = 300;

export function createChangesState(threadId: string): ChangesState {
  const open = signal(false);
  const scopes = signal<DiffScope[]>(['uncommitted', 'turn']);
  const scope = signal<DiffScope>('uncommitted');
  const layout = signal<DiffLayout>('unified');
  const load = signal<DiffLoad>({ kind: 'idle' });
  const target = signal<CommentTarget | null>(null);
  const editing = signal<ReviewComment | null>(null);
  const drafts = createReviewDrafts(threadId);
  // Only the latest read may land: a scope switched twice quickly shows the second scope's diff.
  let asked = 0;
  const reload = async () => {
    const ask = ++asked;
    load.value = { kind: 'loading' };
    const asking = scope.value;
    try {
      // A big change shows its first files as soon as they arrive and the rest as it comes (bench:changes):
      // the first part at once, then at most every SHOW_EVERY_MS, since each showing lays out every row again.
      let shownAt = 0;
      const diff = await readDiff(threadId, asking, (filesSoFar) => {
        if (ask !== asked || (shownAt > 0 && performance.now() - shownAt < SHOW_EVERY_MS)) return;
        shownAt = performance.now();
        const soFar = { scope: asking, base: '', head: '', files: [...filesSoFar], truncated: false };
        load.value = { kind: 'loaded', diff: soFar, partial: true };
      });
      if (ask === asked) load.value = { kind: 'loaded', diff };
    } catch (failure) {
      if (ask === asked) load.value = { kind: 'failed', message: messageOf(failure) };
    }
  };
  const rows = computed(() => {
    const current = load.value;
    return current.kind === 'loaded' ? diffRows(current.diff.files, layout.value) : NO_ROWS;
  });
  void drafts.refresh();
  return {
    threadId,
    open,
    scopes,
    scope,
    layout,
    load,
    rows,
    target,
    editing,
    drafts,
    toggle() {
      open.value = !open.value;
      if (open.value) void reload();
    },
    chooseScope(next) {
      if (next === scope.value) return;
      scope.value = next;
      target.value = null;
      void reload();
    },
    reload,
  };
}
