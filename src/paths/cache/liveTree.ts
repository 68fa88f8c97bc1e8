import { createTreeSnapshot, type TreeSnapshotOptions } from '../walk/treeSnapshot';
import type { Listing } from '../walk/walkEntry';
import { createRootWatch, type RootWatchOptions } from './rootWatch';
import { isStarting, isTrusted, isTrusting } from './watchState';

const EXCLUDED_NAME = /\/(\.git|node_modules)$/;

/** How long a root nobody searches keeps its watch (issue 16: watches end when a root is idle). */
export const DEFAULT_WATCH_IDLE_MS = 5 * 60_000;
/**
 * While a root's watch is starting (seconds on a 135k-entry tree, longer with several roots starting at once)
 * and while its first revalidation once it is up runs, a call is answered from the last listing when that was
 * ready at most this long ago or a revalidation is under way, and one by stamps runs in the background: one
 * `lstat` per directory per keystroke (≈29k, 170–400 ms on a loaded 2-core machine) made the first keystrokes
 * after a root's first listing wait 150–520 ms (issue 26). The same lag the watched listing has (its events
 * arrive 25–55 ms late, and the freshness target is 500 ms). Elsewhere (no watcher, a watch that cannot start,
 * lost events, an idle root searched again) every call still waits for its own revalidation.
 */
export const STALE_WHILE_WATCH_STARTS_MS = 500;

const ANSWERED = {
  watch: 'from the watched listing',
  stamps: 'by revalidating stamps',
  last: 'from the last listing while the watch starts',
} as const;

export interface LiveTreeOptions extends RootWatchOptions {
  /**
   * How old the last listing may be to answer a call while the watch starts (default
   * `STALE_WHILE_WATCH_STARTS_MS`); 0: every call before the watch is trusted waits for its own revalidation by
   * stamps, and the first call once the watch is up is that revalidation (as before issue 26).
   */
  staleWhileWatchStartsMs?: number;
}

/** How a refresh was answered: from the watched listing, or by revalidating every directory's stamps. */
export type ServedBy = 'watch' | 'stamps';

export interface LiveTree {
  refresh(): Promise<Listing>;
  readonly directoriesRead: number;
  /** How the last refresh was answered. */
  readonly servedBy: ServedBy | null;
  close(): Promise<void>;
}

/**
 * One root's walked tree, kept current by a file watcher while someone searches it, so a keystroke costs the
 * ranking and not one `lstat` per directory. Until the watch covers the tree, after it lost events, when it
 * cannot start (inotify's watch limit, a network file system) and once it ended for idleness, calls
 * revalidate by stamps as before: the answer is the same either way, only its cost differs.
 *
 * The watch is wanted from the second call and starts once calls pause (after the first answer with `staleWhileWatchStartsMs` 0). A change before the watch was in place is found by the first
 * full revalidation that starts after it; from then on only directories the watcher named are read again.
 */
export function createLiveTree(root: string, snapshotOptions: TreeSnapshotOptions, options: LiveTreeOptions): LiveTree {
  const debug = options.debug ?? (() => undefined);
  const staleMs = options.staleWhileWatchStartsMs ?? STALE_WHILE_WATCH_STARTS_MS;
  let lastServedBy: ServedBy | null = null;
  /** The last listing a refresh gave, and when (`performance.now()`): what a call is answered from while the watch starts. */
  let latest: { listing: Listing; at: number } | null = null;
  /** A revalidation by stamps started in the background, not for a waiting call. */
  let background: Promise<unknown> | null = null;
  /** A call was answered: the next one starts the watch. */
  let listed = false;

  const snapshot = createTreeSnapshot(root, {
    // Calls after a fresh read are answered from the last listing while its stamps are taken (below).
    stampPace: staleMs > 0 && options.watcher !== null ? 'background' : 'foreground',
    ...snapshotOptions,
    onRootReplaced: () => {
      snapshotOptions.onRootReplaced?.();
      debug(`paths: ${root} was replaced by another directory; watching it anew`);
      void watch.stop();
    },
  });

  /** `'last'`: answered from the last listing while the watch starts (it counts as stamps: no watch vouched for it). */
  const refreshNow = (): [ServedBy | 'last', Promise<Listing>] => {
    if (!isTrusted(watch.state)) {
      // Under load one revalidation takes longer than `staleMs`: while one runs, the last listing still answers.
      const age = latest === null ? Infinity : performance.now() - latest.at;
      const watchComing = isStarting(watch.state) || watch.startWanted;
      const trusting = isTrusting(watch.state);
      if (staleMs > 0 && (watchComing || trusting) && (age < staleMs || background !== null)) {
        // Only once the listing is half its allowed age: revalidations back to back took the two cores from
        // the keystrokes and from the watch's own start (keystrokes p50 39 ms, the watch not up after 16 s).
        if (!trusting && age >= staleMs / 2) revalidateInBackground();
        return ['last', Promise.resolve(latest!.listing)];
      }
      watch.dispatch({ type: 'revalidationStarted' });
      watch.takeNamed();
      return ['stamps', kept(snapshot.refresh())];
    }
    const paths = watch.takeNamed();
    const refreshed = snapshot.refresh({ paths });
    // A new `.git` or `node_modules` folder is watched whole (the watch leaves out those it was told of), so the
    // watch starts anew without it, once this refresh has read what the name is.
    if ([...paths].some((path) => EXCLUDED_NAME.test(path))) void refreshed.then(watch.noteExcludedFolders, () => undefined);
    return ['watch', kept(refreshed)];
  };

  const kept = (refreshed: Promise<Listing>): Promise<Listing> =>
    refreshed.then((listing) => {
      latest = { listing, at: performance.now() };
      return listing;
    });

  /** One revalidation by stamps at a time, in the background; a call queued behind it waits for its own. */
  const revalidateInBackground = (): void => {
    if (background !== null || watch.state.phase === 'closed') return;
    // The watch is trusted once this ends, if it started after the watch was up and no events were lost since;
    // calls until then are answered from the last listing, not queued behind it.
    const trusts = isTrusting(watch.state);
    if (!trusts) watch.dispatch({ type: 'revalidationStarted' });
    watch.takeNamed();
    const began = performance.now();
    debug(`paths: ${root} revalidating by stamps in the background${trusts ? ' (to trust the watch)' : ''}`);
    background = kept(snapshot.refresh(undefined, 'background'))
      .catch(() => undefined)
      .finally(() => {
        debug(`paths: ${root} background revalidation ended after ${(performance.now() - began).toFixed(0)} ms`);
        background = null;
        // It may have found a `.git` or `node_modules` folder made before the watch was up, which the watch then
        // took in whole and sends no event for: the next call watches anew without it.
        watch.noteExcludedFolders();
        if (trusts) watch.dispatch({ type: 'trustRevalidationEnded' });
      });
  };

  const watch = createRootWatch(root, snapshot, options, staleMs > 0, {
    fold: () => void refreshNow()[1].catch(() => undefined),
    revalidateToTrust: revalidateInBackground,
    background: () => background,
  });

  return {
    async refresh() {
      watch.keepAlive();
      // The watch is wanted from a root's second call on and starts once calls pause, answered meanwhile from the
      // listing the first left: a root listed once is not crawled, nor one while a word is typed (issue 26). The
      // strict way (`staleMs` 0) starts it after the first answer, as before.
      if (listed && staleMs > 0) watch.startOncePaused();
      const [how, refreshed] = refreshNow();
      const listing = await refreshed;
      lastServedBy = how === 'watch' ? 'watch' : 'stamps';
      // A revalidation by stamps finds folders whose events a previous watch took with it when it ended; only
      // one this call made (walking 29k folders per answer from the last listing cost 3–8 ms a keystroke, issue 26).
      if (how === 'stamps') watch.noteExcludedFolders();
      debug(`paths: ${root} answered ${ANSWERED[how]}`);
      if (watch.state.phase === 'watching' && watch.state.rewatch) {
        debug(`paths: ${root} has a new .git or node_modules folder; watching it anew without it`);
        void watch.stop(); // the answer does not wait for the old watch to end
      }
      if (staleMs <= 0) watch.start();
      else if (listed) watch.startOncePaused();
      if (!listed) {
        listed = true;
        // The listing just given is as old as its walk, and under load its answer reached the client more than
        // `staleMs` after that (issue 26: the first keystroke then revalidated by stamps itself, 370–800 ms). A
        // revalidation starts now in the background instead: the keystrokes right after are answered from this
        // listing while it runs, and a change made meanwhile is shown once it ends, as when a call waited for it.
        if (options.watcher !== null && staleMs > 0) revalidateInBackground();
      }
      return listing;
    },
    get directoriesRead() {
      return snapshot.directoriesRead;
    },
    get servedBy() {
      return lastServedBy;
    },
    close: () => watch.close(),
  };
}
