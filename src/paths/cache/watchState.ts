/**
 * A live tree's watch as a value with named transitions (issue 37): where the watch is in its life, and whether
 * the watched listing may answer a call. `liveTree.ts` holds the watch itself, its timers and its revalidations,
 * and runs the effects a transition names; this file decides, and a table test (`test/paths/watchState.test.ts`)
 * holds every transition.
 *
 *   off ──start──▶ starting ──started──▶ watching(untrusted) ──revalidationStarted──▶ watching(trusted)
 *    ▲               │                     │  ▲                                          │
 *    │          startFailed            settled: trusting ──trustRevalidationEnded────────┘
 *    │               ▼                     │
 *    └───idle─── unwatchable        stop ──┴──▶ off        (close, from anywhere ──▶ closed)
 */

/**
 * While a watch is up, whether its listing may answer: not until a full revalidation by stamps has started
 * since it was up (a change made before the watch was in place has no event), nor after it may have lost events.
 * `trusting`: that revalidation runs in the background and trusts the watch once it ends.
 */
export type WatchTrust = 'untrusted' | 'trusting' | 'trusted';

export type WatchState =
  /** No watch; the next start request starts one. */
  | { readonly phase: 'off' }
  /** The watch could not start (inotify's limit, a network file system); tried again once the root is idle. */
  | { readonly phase: 'unwatchable' }
  /** The watcher is crawling the tree, or a stopped watch's start has not finished yet. */
  | { readonly phase: 'starting' }
  /**
   * `settling`: the watch is up and waits for a background revalidation already running before it starts the
   * one that trusts it; it still counts as starting. `rewatch`: a `.git` or `node_modules` folder appeared that
   * this watch does not leave out, so it is to start anew without it.
   */
  | { readonly phase: 'watching'; readonly trust: WatchTrust; readonly settling: boolean; readonly rewatch: boolean }
  | { readonly phase: 'closed' };

export type WatchEvent =
  | { readonly type: 'start' }
  /** `settle`: the watch is trusted by a background revalidation (stale-while-starting) rather than by the next call. */
  | { readonly type: 'started'; readonly settle: boolean }
  | { readonly type: 'startFailed' }
  /** The background revalidation a settling watch waited for has ended. */
  | { readonly type: 'settled' }
  | { readonly type: 'lost' }
  /** A full revalidation by stamps started that does not itself wait to trust the watch. */
  | { readonly type: 'revalidationStarted' }
  | { readonly type: 'trustRevalidationEnded' }
  | { readonly type: 'excludedFolderFound' }
  | { readonly type: 'stop' }
  | { readonly type: 'idle' }
  | { readonly type: 'close' };

/**
 * What the owner does after a transition: `startWatch` starts the watcher; `closeStartedWatch` closes a watch that
 * came up after close; `revalidateToTrust` starts the background revalidation that trusts the watch;
 * `stopOnceStarted` ends the watch once its start has finished (the root is idle).
 */
export type WatchEffect = 'startWatch' | 'closeStartedWatch' | 'revalidateToTrust' | 'stopOnceStarted';

export interface WatchStep {
  readonly state: WatchState;
  readonly effects: readonly WatchEffect[];
}

export const INITIAL_WATCH_STATE: WatchState = { phase: 'off' };

const step = (state: WatchState, ...effects: WatchEffect[]): WatchStep => ({ state, effects });
const watching = (trust: WatchTrust, settling = false, rewatch = false): WatchState => ({ phase: 'watching', trust, settling, rewatch });

export function nextWatchState(state: WatchState, event: WatchEvent): WatchStep {
  if (state.phase === 'closed') return event.type === 'started' ? step(state, 'closeStartedWatch') : step(state);
  switch (event.type) {
    case 'start':
      return state.phase === 'off' ? step({ phase: 'starting' }, 'startWatch') : step(state);
    case 'started':
      return state.phase === 'starting' ? step(watching('untrusted', event.settle)) : step(state);
    case 'startFailed':
      return state.phase === 'starting' ? step({ phase: 'unwatchable' }) : step(state);
    case 'settled':
      if (state.phase === 'watching' && state.settling) return step({ ...state, trust: 'trusting', settling: false }, 'revalidateToTrust');
      // The watch was stopped while it settled: its start is over only now.
      return state.phase === 'starting' ? step({ phase: 'off' }) : step(state);
    case 'lost':
      return state.phase === 'watching' ? step({ ...state, trust: 'untrusted' }) : step(state);
    case 'revalidationStarted':
      return state.phase === 'watching' ? step({ ...state, trust: 'trusted' }) : step(state);
    case 'trustRevalidationEnded':
      return state.phase === 'watching' && state.trust === 'trusting' ? step({ ...state, trust: 'trusted' }) : step(state);
    case 'excludedFolderFound':
      return state.phase === 'watching' ? step({ ...state, rewatch: true }) : step(state);
    case 'stop':
      if (state.phase !== 'watching') return step(state);
      return step(state.settling ? { phase: 'starting' } : { phase: 'off' });
    case 'idle':
      if (state.phase === 'unwatchable') return step({ phase: 'off' });
      return state.phase === 'off' ? step(state) : step(state, 'stopOnceStarted');
    case 'close':
      return step({ phase: 'closed' });
  }
}

/** The watched listing may answer a call (only the directories the watcher named are read again). */
export const isTrusted = (state: WatchState): boolean => state.phase === 'watching' && state.trust === 'trusted';

export const isTrusting = (state: WatchState): boolean => state.phase === 'watching' && state.trust === 'trusting';

/** A watch is on its way: calls may be answered from the last listing meanwhile. */
export const isStarting = (state: WatchState): boolean => state.phase === 'starting' || (state.phase === 'watching' && state.settling);
