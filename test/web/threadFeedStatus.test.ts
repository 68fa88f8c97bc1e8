import { expect } from 'chai';
import { nextFeedStatus, OPENING_FEED, type FeedEffect, type FeedEvent, type FeedStatus } from '../../src/web/state/threadFeedStatus';

const loading = OPENING_FEED;
const live: FeedStatus = { phase: 'live', ended: null };
const reconnecting: FeedStatus = { phase: 'reconnecting', ended: null };
const closedLive: FeedStatus = { phase: 'live', ended: 'closed' };
const goneLive: FeedStatus = { phase: 'live', ended: 'gone' };

type Row = [why: string, status: FeedStatus, event: FeedEvent, next: FeedStatus, effects?: FeedEffect[]];

/** Every transition of a thread feed's stream (`src/web/state/threadFeedStatus.ts`), one row each. */
const rows: Row[] = [
  ['the backlog shown, the feed is live', loading, { type: 'backlogShown' }, live],
  [
    'a feed closed while its backlog loaded stays as it was',
    { phase: 'loading', ended: 'closed' },
    { type: 'backlogShown' },
    { phase: 'loading', ended: 'closed' },
  ],
  ['the stream opening makes the feed live', loading, { type: 'opened' }, live],
  ['a stream back after a drop is live again', reconnecting, { type: 'opened' }, live],
  ['a drop the browser retries (Last-Event-ID) only says reconnecting', live, { type: 'dropped', final: false }, reconnecting],
  [
    'a stream the browser gave up on: rows waiting are shown, and the feed reconnects from the last seq',
    live,
    { type: 'dropped', final: true },
    reconnecting,
    ['flush', 'reconnectLater'],
  ],
  ['a drop after close changes nothing', closedLive, { type: 'dropped', final: true }, closedLive],
  ['a drop after the thread is gone changes nothing', goneLive, { type: 'dropped', final: true }, goneLive],
  [
    'the stream says deleted: rows sent before are shown, the stream closes, the thread is gone',
    live,
    { type: 'deleted' },
    goneLive,
    ['flush', 'closeStream'],
  ],
  [
    'a 404 after the page closed the feed still says the thread is gone',
    closedLive,
    { type: 'deleted' },
    goneLive,
    ['flush', 'closeStream'],
  ],
  ['closing the page closes the stream', live, { type: 'close' }, closedLive, ['closeStream']],
  ['closing a feed whose thread is gone keeps it gone', goneLive, { type: 'close' }, goneLive, ['closeStream']],
];

describe('a thread feed’s stream status (threadFeedStatus.ts)', () => {
  for (const [why, status, event, next, effects = []] of rows) {
    it(`${why}: ${describeStatus(status)} × ${event.type} → ${describeStatus(next)}${effects.length ? ` [${effects.join(', ')}]` : ''}`, () => {
      const step = nextFeedStatus(status, event);
      expect(step.status).to.deep.equal(next);
      expect(step.effects).to.deep.equal(effects);
    });
  }
});

function describeStatus(status: FeedStatus): string {
  return status.ended === null ? status.phase : `${status.phase}, ${status.ended}`;
}
