import { expect } from 'chai';
import { deletionText } from '../../src/web/state/deletionText';
import { storedRows } from './storedRows';
import { Transcript } from '../../src/web/state/transcript';

const built = storedRows(null);
const row = built.row;

/** Issue 28's rows as the page folds them: the header's fields from `thread/updated`, the turns a delete takes. */
describe('the page folds thread/updated rows and counts turns', () => {
  beforeEach(() => built.reset());

  it('each thread/updated row changes only the fields it carries; the latest value of each wins', () => {
    const transcript = new Transcript();
    transcript.apply([row('thread/updated', { title: 'First' }), row('thread/updated', { archived: true, permissionMode: 'ask' })]);
    expect(transcript.threadUpdate.value).to.deep.equal({ title: 'First', archived: true, permissionMode: 'ask' });
    transcript.apply([row('thread/updated', { title: 'Second', archived: false, keepAgentRunning: true })]);
    expect(transcript.threadUpdate.value).to.deep.equal({
      title: 'Second',
      archived: false,
      permissionMode: 'ask',
      keepAgentRunning: true,
    });
  });

  it('a batch without a thread/updated row leaves the header fields untouched (no render for them)', () => {
    const transcript = new Transcript();
    transcript.apply([row('thread/updated', { title: 'Kept' })]);
    const before = transcript.threadUpdate.value;
    transcript.apply([row('turn/started', { origin: 'client' }, 't1'), row('turn/completed', { status: 'completed' }, 't1')]);
    expect(transcript.threadUpdate.value).to.equal(before);
    expect(transcript.entries.value).to.have.length(1);
  });

  it('counts one turn per turn/started row, for the delete confirmation', () => {
    const transcript = new Transcript();
    expect(transcript.turnCount.value).to.equal(0);
    transcript.apply([row('turn/started', {}, 't1'), row('turn/completed', { status: 'completed' }, 't1'), row('turn/started', {}, 't2')]);
    expect(transcript.turnCount.value).to.equal(2);
  });

  for (const [turns, said] of [
    [0, '“Notes” (no turns yet) will be deleted'],
    [1, '“Notes” and its 1 turn will be deleted'],
    [12, '“Notes” and its 12 turns will be deleted'],
    // A long thread opened at its end (issue 31): the page has not read its earlier turns.
    [null, '“Notes” and all its turns will be deleted'],
  ] as const)
    it(`the confirmation says what goes: ${turns} turn(s)`, () => {
      expect(deletionText('Notes', turns)).to.equal(`${said}, with everything the agent wrote. This cannot be undone.`);
    });
});
