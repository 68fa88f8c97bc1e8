import { expect } from 'chai';
import { storedRows } from './storedRows';
import { Transcript } from '../../src/web/state/transcript';
import { type ItemModel, type TurnModel } from '../../src/web/state/transcriptModel';

const built = storedRows(null);
const row = built.row;

/** Three turns' rows, seqs 1–12: a prompt, an answer and usage in each. */
function threeTurns() {
  return [1, 2, 3].flatMap((turn) => [
    row('turn/started', { origin: 'client' }, `t${turn}`),
    row('item/completed', { item: { type: 'agentMessage', id: `m${turn}`, text: `Answer ${turn}` } }, `t${turn}`),
    row('thread/tokenUsage/updated', { tokenUsage: { total: { totalTokens: turn }, last: { totalTokens: turn } } }, null),
    row('turn/completed', { status: 'completed' }, `t${turn}`),
  ]);
}

/** A long thread opened at its end (issue 31): the earlier turns read backwards go in front of those shown. */
describe('the page puts earlier turns in front of a thread opened at its end (issue 31)', () => {
  beforeEach(() => built.reset());

  it('earlier turns go in front, in order; the latest usage stays; live rows still follow the last seq', () => {
    const rows = threeTurns();
    const transcript = new Transcript();
    transcript.apply(rows.slice(8));
    transcript.prepend(rows.slice(0, 8));
    const turns = transcript.entries.value as TurnModel[];
    expect(turns.map((turn) => turn.key)).to.deep.equal(['t1', 't2', 't3']);
    expect(turns.map((turn) => (turn.entries.value[0] as ItemModel).text.value)).to.deep.equal(['Answer 1', 'Answer 2', 'Answer 3']);
    expect(transcript.tokenUsage.value!.total.totalTokens).to.equal(3);
    expect(transcript.turnCount.value).to.equal(3);
    expect(transcript.lastSeq).to.equal(12);
    // A row the stream repeats is skipped; a new one lands after the last turn.
    expect(transcript.apply([rows[11]!])).to.equal(0);
    transcript.apply([row('turn/started', { origin: 'client' }, 't4')]);
    expect((transcript.entries.value as TurnModel[]).map((turn) => turn.key)).to.deep.equal(['t1', 't2', 't3', 't4']);
  });

  it('a question asked in an earlier turn and never answered still counts as waiting', () => {
    const transcript = new Transcript();
    const started = row('turn/started', {}, 't1');
    const asked = row(
      'approval/requested',
      { approvalId: 'a1', subject: { kind: 'execute', title: 'Run ls', command: 'ls' }, options: [], permissionMode: 'ask' },
      't1',
    );
    const earlier = [started, asked];
    transcript.apply([row('turn/started', {}, 't2')]);
    transcript.prepend(earlier);
    expect(transcript.pendingApprovalIds.value).to.deep.equal(['a1']);
  });
});
