import { expect } from 'chai';
import {
  isStarting,
  isTrusted,
  nextWatchState,
  type WatchEffect,
  type WatchEvent,
  type WatchState,
  type WatchTrust,
} from '../../src/paths/cache/watchState';

const off: WatchState = { phase: 'off' };
const starting: WatchState = { phase: 'starting' };
const unwatchable: WatchState = { phase: 'unwatchable' };
const closed: WatchState = { phase: 'closed' };
const watching = (trust: WatchTrust, settling = false, rewatch = false): WatchState => ({ phase: 'watching', trust, settling, rewatch });

type Row = [why: string, state: WatchState, event: WatchEvent, next: WatchState, effects?: WatchEffect[]];

/** Every transition a live tree's watch makes (`src/paths/cache/watchState.ts`), one row each. */
const rows: Row[] = [
  ['a wanted watch starts', off, { type: 'start' }, starting, ['startWatch']],
  ['a watch starting is not started twice', starting, { type: 'start' }, starting],
  ['a watch up is not started again', watching('trusted'), { type: 'start' }, watching('trusted')],
  ['an unwatchable root is not tried again before it was idle', unwatchable, { type: 'start' }, unwatchable],
  ['a watch up is untrusted: the next call revalidates by stamps', starting, { type: 'started', settle: false }, watching('untrusted')],
  [
    'stale-while-starting: a watch up settles before its trusting revalidation',
    starting,
    { type: 'started', settle: true },
    watching('untrusted', true),
  ],
  ['a watch that came up after close is closed', closed, { type: 'started', settle: true }, closed, ['closeStartedWatch']],
  ['a watch that cannot start leaves the root unwatchable', starting, { type: 'startFailed' }, unwatchable],
  ['a failure after close keeps it closed', closed, { type: 'startFailed' }, closed],
  [
    'once settled, the revalidation that trusts it starts',
    watching('untrusted', true),
    { type: 'settled' },
    watching('trusting'),
    ['revalidateToTrust'],
  ],
  ['a watch stopped while it settled is over once settled', starting, { type: 'settled' }, off],
  ['settling after close does nothing', closed, { type: 'settled' }, closed],
  ['a full revalidation trusts an untrusted watch', watching('untrusted'), { type: 'revalidationStarted' }, watching('trusted')],
  ['a full revalidation before the watch is up trusts nothing', starting, { type: 'revalidationStarted' }, starting],
  [
    'the trusting revalidation trusts the watch when it ends',
    watching('trusting'),
    { type: 'trustRevalidationEnded' },
    watching('trusted'),
  ],
  ['events lost meanwhile: its end trusts nothing', watching('untrusted'), { type: 'trustRevalidationEnded' }, watching('untrusted')],
  ['lost events untrust a trusted watch', watching('trusted'), { type: 'lost' }, watching('untrusted')],
  ['lost events end a trusting revalidation’s claim', watching('trusting'), { type: 'lost' }, watching('untrusted')],
  [
    'a new .git or node_modules folder marks the watch to start anew',
    watching('trusted'),
    { type: 'excludedFolderFound' },
    watching('trusted', false, true),
  ],
  ['with no watch up a new excluded folder needs nothing', off, { type: 'excludedFolderFound' }, off],
  ['a stopped watch is off: the next start starts a new one', watching('trusted', false, true), { type: 'stop' }, off],
  ['a watch stopped while it settles is still starting', watching('untrusted', true), { type: 'stop' }, starting],
  ['stopping a start under way lets it finish', starting, { type: 'stop' }, starting],
  ['an idle unwatchable root is tried again by the next search', unwatchable, { type: 'idle' }, off],
  ['an idle watch ends', watching('trusted'), { type: 'idle' }, watching('trusted'), ['stopOnceStarted']],
  ['an idle start ends once it has started', starting, { type: 'idle' }, starting, ['stopOnceStarted']],
  ['an idle root with no watch needs nothing', off, { type: 'idle' }, off],
  ['close ends everything', watching('trusting'), { type: 'close' }, closed],
  ['nothing starts after close', closed, { type: 'start' }, closed],
];

describe('a live tree’s watch state (watchState.ts)', () => {
  for (const [why, state, event, next, effects = []] of rows) {
    it(`${why}: ${describeState(state)} × ${event.type} → ${describeState(next)}${effects.length ? ` [${effects.join(', ')}]` : ''}`, () => {
      const step = nextWatchState(state, event);
      expect(step.state).to.deep.equal(next);
      expect(step.effects).to.deep.equal(effects);
    });
  }

  it('calls are answered from the watched listing only once it is trusted; a settling watch still counts as starting', () => {
    expect([off, starting, watching('untrusted'), watching('trusting'), watching('trusted')].map(isTrusted)).to.deep.equal([
      false,
      false,
      false,
      false,
      true,
    ]);
    expect([off, starting, watching('untrusted', true), watching('untrusted'), unwatchable].map(isStarting)).to.deep.equal([
      false,
      true,
      true,
      false,
      false,
    ]);
  });
});

function describeState(state: WatchState): string {
  if (state.phase !== 'watching') return state.phase;
  return `watching(${state.trust}${state.settling ? ', settling' : ''}${state.rewatch ? ', rewatch' : ''})`;
}
