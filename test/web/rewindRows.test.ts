import { expect } from 'chai';
import { Transcript } from '../../src/web/state/transcript';
import type { TurnModel } from '../../src/web/state/transcriptModel';
import { storedRows } from './storedRows';

const built = storedRows(null);
const row = built.row;

const turn = (turnId: string) => [
  row('turn/started', { origin: 'client' }, turnId),
  row('item/started', { item: { type: 'userMessage', id: `u-${turnId}`, content: [{ type: 'text', text: turnId }] } }, turnId),
  row('turn/completed', { status: 'completed' }, turnId),
];

/** Issue 39: the page keeps every row of a reverted turn and dims it while a revert that undid it is in force. */
describe('the page folds revert rows: undone turns dimmed, never removed', () => {
  beforeEach(() => built.reset());

  it('a revert dims its turn and the later ones; an unrevert of it takes them back; the turns stay', () => {
    const transcript = new Transcript();
    transcript.apply([...turn('t1'), ...turn('t2'), ...turn('t3')]);
    transcript.apply([row('thread/reverted', { turnId: 't2', snapshotRef: 'refs/ats/reverts/x/a/before', undoneTurnIds: ['t2', 't3'] })]);
    expect([...transcript.rewind.undone.value]).to.deep.equal(['t2', 't3']);
    expect(transcript.rewind.newest.value?.turnId).to.equal('t2');
    expect((transcript.entries.value as TurnModel[]).map((entry) => entry.key)).to.deep.equal(['t1', 't2', 't3']);

    transcript.apply([
      row('thread/reverted', { turnId: 't1', snapshotRef: 'refs/ats/reverts/x/b/before', undoneTurnIds: ['t1', 't2', 't3'] }),
    ]);
    transcript.apply([row('thread/unreverted', { turnId: 't1', snapshotRef: 'refs/ats/reverts/x/b/before' })]);
    expect([...transcript.rewind.undone.value]).to.deep.equal(['t2', 't3']);
    transcript.apply([row('thread/unreverted', { turnId: 't2', snapshotRef: 'refs/ats/reverts/x/a/before' })]);
    expect(transcript.rewind.undone.value.size).to.equal(0);
    expect(transcript.rewind.newest.value).to.equal(null);
  });

  it('a turn after a revert makes it final: still dimmed, no longer offered to undo', () => {
    const transcript = new Transcript();
    transcript.apply([...turn('t1'), row('thread/reverted', { turnId: 't1', snapshotRef: 's', undoneTurnIds: ['t1'] })]);
    expect(transcript.rewind.newest.value?.snapshotRef).to.equal('s');
    transcript.apply(turn('t2'));
    expect(transcript.rewind.newest.value).to.equal(null);
    expect([...transcript.rewind.undone.value]).to.deep.equal(['t1']);
  });

  it('a revert read in an earlier page still dims its turns', () => {
    const earlier = [...turn('t1'), row('thread/reverted', { turnId: 't1', snapshotRef: 's', undoneTurnIds: ['t1'] })];
    const later = turn('t2');
    const transcript = new Transcript();
    transcript.apply(later);
    transcript.prepend(earlier);
    expect([...transcript.rewind.undone.value]).to.deep.equal(['t1']);
  });
});
