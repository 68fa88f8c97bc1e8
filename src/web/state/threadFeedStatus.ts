/**
 * A thread feed's life as a value with named transitions (issue 37): what the page shows about its stream, and
 * whether the feed has ended. `threadFeed.ts` holds the stream and the rows and runs the effects a transition
 * names; this file decides, and a table test (`test/web/threadFeedStatus.test.ts`) holds every transition.
 *
 *   loading ──backlogShown / opened──▶ live ◀──opened── reconnecting
 *                                       └────dropped────▶──┘
 *   any ──deleted──▶ ended 'gone'        any ──close──▶ ended 'closed'
 */

/** `loading` until the backlog is shown, then `live` (or `reconnecting` while the stream is down). */
export type FeedPhase = 'loading' | 'live' | 'reconnecting';

export interface FeedStatus {
  readonly phase: FeedPhase;
  /** Set once nothing more is read: the page closed the feed, or the thread was deleted (`gone`). */
  readonly ended: null | 'closed' | 'gone';
}

export type FeedEvent =
  /** The opening rows are shown (or could not be read). */
  | { readonly type: 'backlogShown' }
  | { readonly type: 'opened' }
  /** The stream failed; `final`: the browser gave up retrying it (`readyState` CLOSED). */
  | { readonly type: 'dropped'; readonly final: boolean }
  /** The stream said `deleted` (issue 28), or the thread's id answered 404. */
  | { readonly type: 'deleted' }
  | { readonly type: 'close' };

/**
 * `flush`: show the rows waiting for the next frame now; `closeStream`: close the EventSource; `reconnectLater`:
 * read the thread again (a 404 says it was deleted while no stream could say so) and listen anew from the last seq.
 */
export type FeedEffect = 'flush' | 'closeStream' | 'reconnectLater';

export interface FeedStep {
  readonly status: FeedStatus;
  readonly effects: readonly FeedEffect[];
}

export const OPENING_FEED: FeedStatus = { phase: 'loading', ended: null };

const step = (status: FeedStatus, ...effects: FeedEffect[]): FeedStep => ({ status, effects });

export function nextFeedStatus(status: FeedStatus, event: FeedEvent): FeedStep {
  switch (event.type) {
    case 'backlogShown':
      return step(status.ended === null ? { ...status, phase: 'live' } : status);
    case 'opened':
      return step({ ...status, phase: 'live' });
    case 'dropped':
      if (status.ended !== null) return step(status);
      return step({ ...status, phase: 'reconnecting' }, ...(event.final ? (['flush', 'reconnectLater'] as const) : []));
    case 'deleted':
      // Rows the stream sent before it said so are shown first.
      return step({ ...status, ended: 'gone' }, 'flush', 'closeStream');
    case 'close':
      return step(status.ended === null ? { ...status, ended: 'closed' } : status, 'closeStream');
  }
}
