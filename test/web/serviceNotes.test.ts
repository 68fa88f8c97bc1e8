import { expect } from 'chai';
import { Transcript } from '../../src/web/state/transcript';
import type { NoteModel, TurnModel } from '../../src/web/state/transcriptModel';
import { storedRows } from './storedRows';

const built = storedRows(null);
const row = built.row;

/** Issue 39: every action on a thread's work is a row, and the transcript shows it where it happened. */
describe('the transcript shows the service’s actions on the thread’s work as notes', () => {
  beforeEach(() => built.reset());

  it('a fork’s start, a commit, a push and a pull request, each a line in order between the turns', () => {
    const transcript = new Transcript();
    transcript.apply([
      row('thread/forked', { sourceThreadId: 'thr_source', sourceSeq: 3, sourceTurnId: 'turn_1' }),
      row('turn/started', { origin: 'client' }, 't1'),
      row('turn/completed', { status: 'completed' }, 't1'),
      row('git/committed', { sha: '0123456789abcdef', message: 'Add the greeting\n\nLonger body', files: ['a.txt', 'b.txt'] }),
      row('git/pushed', { remote: 'origin', branch: 'ats/1234-greeting', sha: '0123456789abcdef', recovered: true }),
      row('pr/opened', {
        pullRequest: { url: 'https://example.com/o/r/pull/7', number: 7, state: 'open', base: 'main', head: 'ats/1234-greeting' },
      }),
      row('pr/state', { url: 'https://example.com/o/r/pull/7', number: 7, state: 'merged' }),
    ]);
    const entries = transcript.entries.value as Array<NoteModel | TurnModel>;
    expect(entries.map((entry) => (entry.kind === 'turn' ? 'turn' : `${entry.title}: ${(entry as NoteModel).text}`))).to.deep.equal([
      'Forked: from thread thr_source, after its turn turn_1: the rows above are that thread’s',
      'turn',
      'Committed: 0123456 Add the greeting (2 files)',
      'Pushed: ats/1234-greeting to origin at 0123456 (found after the host restarted)',
      'Pull request opened: #7 https://example.com/o/r/pull/7',
      'Pull request: #7 is merged: https://example.com/o/r/pull/7',
    ]);
    expect(entries.filter((entry) => entry.kind !== 'turn').every((entry) => entry.kind === 'service')).to.equal(true);
  });
});
