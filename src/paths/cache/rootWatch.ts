import type { TreeSnapshot } from '../walk/treeSnapshot';
import { isNetworkFileSystem } from './networkFileSystem';
import { startOncePaused } from './startOncePaused';
import type { TreeWatch, TreeWatcherFactory, TreeWatchListener } from './treeWatcher';
import { INITIAL_WATCH_STATE, nextWatchState, type WatchEffect, type WatchEvent, type WatchState } from './watchState';

/** Changes are folded into the listing this soon after their events, so the next keystroke finds them done. */
export const FOLD_CHANGES_AFTER_MS = 20;

export interface RootWatchOptions {
  /** `null`: never watch, always revalidate by stamps (as before issue 16). */
  watcher: TreeWatcherFactory | null;
  idleMs: number;
  /** Says which way each call was answered and why watching stopped (a debug log; silent when absent). */
  debug?: (message: string) => void;
  /** How long calls must pause before the watch starts (default `WATCH_AFTER_PAUSE_MS`; with `staleWhileWatchStartsMs` > 0). */
  watchAfterPauseMs?: number;
  /** Whether `root` is on a file system whose changes a local watch cannot see (default: by `statfs`). */
  isNetworkFileSystem?: (root: string) => Promise<boolean>;
}

/** What the watch asks of the live tree that owns the listing. */
export interface RootWatchHooks {
  /** Folds the paths the watcher named into the listing (the watch is trusted and named some). */
  fold(): void;
  /** Starts the background revalidation by stamps that trusts the watch once it ends. */
  revalidateToTrust(): void;
  /** The background revalidation under way, which a watch just up waits for before it starts its own. */
  background(): Promise<unknown> | null;
}

/**
 * One root's file watch (its transitions in `watchState.ts`): starts it, collects the paths it names, ends it
 * when the root is idle or closed. `LiveTree` decides from `state` how each call is answered.
 */
export interface RootWatch {
  readonly state: WatchState;
  dispatch(event: WatchEvent): void;
  /** The paths the watcher named since the last take. */
  takeNamed(): Set<string>;
  /** Marks the watch for a new start when the snapshot found a `.git` or `node_modules` folder it does not leave out. */
  noteExcludedFolders(): void;
  start(): void;
  /** The watch starts once calls on the root pause (`startOncePaused.ts`), not with the call that wants it. */
  startOncePaused(): void;
  /** A start once calls pause is pending. */
  readonly startWanted: boolean;
  stop(): Promise<void>;
  /** A call came: the idle timer starts again. */
  keepAlive(): void;
  close(): Promise<void>;
}

/** Starts the watcher, unless `root` is on a file system whose changes made elsewhere a local watch does not see. */
async function watchLocalTree(root: string, options: RootWatchOptions, ignore: string[], listener: TreeWatchListener): Promise<TreeWatch> {
  if (await (options.isNetworkFileSystem ?? isNetworkFileSystem)(root)) {
    throw new Error('a network file system: a local watch does not see changes made elsewhere');
  }
  return options.watcher!(root, listener, { ignore });
}

/** Calls `onIdle` once `touch` has not been called for `ms`. */
function idleTimeout(ms: number, onIdle: () => void): { touch(): void; cancel(): void } {
  let timer: NodeJS.Timeout | null = null;
  const cancel = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  return {
    touch() {
      cancel();
      timer = setTimeout(() => {
        timer = null;
        onIdle();
      }, ms);
      timer.unref();
    },
    cancel,
  };
}

/** `trustInBackground`: a watch just up is trusted by a background revalidation, not by the next call (issue 26). */
export function createRootWatch(
  root: string,
  snapshot: TreeSnapshot,
  options: RootWatchOptions,
  trustInBackground: boolean,
  hooks: RootWatchHooks,
): RootWatch {
  const debug = options.debug ?? (() => undefined);
  let state = INITIAL_WATCH_STATE;
  let watch: TreeWatch | null = null;
  let starting: Promise<void> | null = null;
  let named = new Set<string>();
  /** The `.git` and `node_modules` folders the current watch leaves out. */
  let unwatched = new Set<string>();
  let foldTimer: NodeJS.Timeout | null = null;

  const dispatch = (event: WatchEvent): readonly WatchEffect[] => {
    const next = nextWatchState(state, event);
    state = next.state;
    for (const effect of next.effects) {
      if (effect === 'startWatch') starting = startWatch().finally(() => (starting = null));
      if (effect === 'revalidateToTrust') hooks.revalidateToTrust();
      if (effect === 'stopOnceStarted') void (starting ?? Promise.resolve()).then(stop);
    }
    return next.effects;
  };

  const foldSoon = (): void => {
    if (foldTimer !== null || state.phase === 'closed') return;
    foldTimer = setTimeout(() => {
      foldTimer = null;
      if (state.phase === 'watching' && state.trust === 'trusted' && named.size > 0) hooks.fold();
    }, FOLD_CHANGES_AFTER_MS);
    foldTimer.unref();
  };

  const startWatch = async (): Promise<void> => {
    try {
      debug(`paths: ${root} starting its watch`);
      unwatched = new Set(snapshot.excludedDirectories());
      const started = await watchLocalTree(root, options, [...unwatched], {
        changed: (paths) => {
          for (const path of paths) named.add(path);
          foldSoon();
        },
        lost: (reason) => {
          debug(`paths: ${root} watch may have lost events (${reason}); the next call revalidates by stamps`);
          dispatch({ type: 'lost' });
        },
      });
      if (dispatch({ type: 'started', settle: trustInBackground }).includes('closeStartedWatch')) return await started.close();
      watch = started;
      debug(`paths: ${root} is watched; calls are answered from the watched listing after one more revalidation by stamps`);
      if (state.phase !== 'watching' || !state.settling) return;
      // The revalidation that trusts it starts now rather than on the next keystroke, which would wait for all of
      // it: it finds a change made before the watch was up; calls meanwhile are answered from the last listing.
      await hooks.background();
      dispatch({ type: 'settled' });
    } catch (error) {
      dispatch({ type: 'startFailed' });
      debug(`paths: ${root} cannot be watched (${error instanceof Error ? error.message : String(error)}); calls revalidate by stamps`);
    }
  };

  const pausedStart = startOncePaused(() => start(), options.watchAfterPauseMs);
  const start = (): void => {
    if (options.watcher !== null) dispatch({ type: 'start' });
  };

  const stop = async (): Promise<void> => {
    const ending = watch;
    watch = null;
    dispatch({ type: 'stop' });
    if (foldTimer !== null) clearTimeout(foldTimer);
    foldTimer = null;
    await ending?.close().catch(() => undefined);
  };

  const idle = idleTimeout(options.idleMs, () => {
    // An unwatchable root is tried again by the next search (the inotify limit may have room by then).
    if (state.phase === 'starting' || state.phase === 'watching') {
      debug(`paths: ${root} idle for ${options.idleMs} ms; its watch ends (the next call revalidates by stamps)`);
    }
    dispatch({ type: 'idle' });
  });

  return {
    get state() {
      return state;
    },
    dispatch: (event) => void dispatch(event),
    takeNamed() {
      const paths = named;
      named = new Set();
      return paths;
    },
    noteExcludedFolders() {
      if (snapshot.excludedDirectories().some((path) => !unwatched.has(path))) dispatch({ type: 'excludedFolderFound' });
    },
    start,
    startOncePaused() {
      if (options.watcher !== null && state.phase === 'off') pausedStart.want();
    },
    get startWanted() {
      return pausedStart.wanted;
    },
    stop,
    keepAlive: idle.touch,
    async close() {
      dispatch({ type: 'close' });
      idle.cancel();
      pausedStart.cancel();
      await starting;
      await stop();
    },
  };
}
