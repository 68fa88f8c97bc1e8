import { expect } from 'chai';
import { resolutionText, type ApprovalModel, type PlanModel } from '../../src/web/state/approvals';
import { storedRows } from './storedRows';
import { Transcript } from '../../src/web/state/transcript';
import { type ItemModel, type TurnModel } from '../../src/web/state/transcriptModel';

const built = storedRows('t1');
const row = built.row;

const asked = (approvalId: string) =>
  row('approval/requested', {
    approvalId,
    subject: { kind: 'execute', title: 'Run the tests', command: 'npm test', paths: ['/work/p'] },
    options: [
      { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
    permissionMode: 'ask',
  });

const entriesOf = (transcript: Transcript) => (transcript.entries.value[0] as TurnModel).entries.value;

/** Issue 27's rows as the page folds them: questions and their answers, the plan, the agent's thinking. */
describe('the page folds approval, plan and reasoning rows', () => {
  beforeEach(() => built.reset());

  it('a question is pending in its turn until its approval/resolved row, then carries the answer', () => {
    const transcript = new Transcript();
    transcript.apply([row('turn/started', { origin: 'client' }), asked('a1'), asked('a2')]);
    expect(transcript.pendingApprovalIds.value).to.deep.equal(['a1', 'a2']);
    const [card] = entriesOf(transcript) as ApprovalModel[];
    expect(card!.request.subject.command).to.equal('npm test');
    expect(card!.resolution.value).to.equal(null);

    transcript.apply([row('approval/resolved', { approvalId: 'a1', decidedBy: 'user', optionId: 'allow', optionKind: 'allow_once' })]);
    expect(card!.resolution.value).to.deep.include({ decidedBy: 'user', optionKind: 'allow_once' });
    expect(transcript.pendingApprovalIds.value).to.deep.equal(['a2']);
  });

  it('an answer to a question the log never showed changes nothing', () => {
    const transcript = new Transcript();
    transcript.apply([row('turn/started', { origin: 'client' }), asked('a1')]);
    transcript.apply([row('approval/resolved', { approvalId: 'other', decidedBy: 'cancelled', reason: 'stopped' })]);
    expect(transcript.pendingApprovalIds.value).to.deep.equal(['a1']);
  });

  it('the plan is one entry per turn, its steps replaced by the latest turn/plan/updated row', () => {
    const transcript = new Transcript();
    transcript.apply([
      row('turn/started', { origin: 'client' }),
      row('turn/plan/updated', {
        plan: [
          { step: 'Read', status: 'inProgress' },
          { step: 'Fix', status: 'pending' },
        ],
      }),
      row('item/started', { item: { type: 'agentMessage', id: 'm1', text: '' } }),
    ]);
    const [plan] = entriesOf(transcript) as PlanModel[];
    transcript.apply([
      row('turn/plan/updated', {
        plan: [
          { step: 'Read', status: 'completed' },
          { step: 'Fix', status: 'inProgress' },
        ],
      }),
    ]);
    expect(entriesOf(transcript).map((entry) => entry.kind)).to.deep.equal(['plan', 'item']);
    expect(entriesOf(transcript)[0]).to.equal(plan);
    expect(plan!.steps.value.map((step) => step.status)).to.deep.equal(['completed', 'inProgress']);
  });

  it('a reasoning item streams its deltas and ends with its final text', () => {
    const transcript = new Transcript();
    transcript.apply([
      row('turn/started', { origin: 'client' }),
      row('item/started', { item: { type: 'reasoning', id: 'r1', text: '' } }),
      row('item/reasoning/delta', { itemId: 'r1', delta: 'Hmm, ' }),
      row('item/reasoning/delta', { itemId: 'r1', delta: 'the tests' }),
    ]);
    const [thinking] = entriesOf(transcript) as ItemModel[];
    expect(thinking!.text.value).to.equal('Hmm, the tests');
    transcript.apply([row('item/completed', { item: { type: 'reasoning', id: 'r1', text: 'Hmm, the tests first.' } })]);
    expect(thinking!.text.value).to.equal('Hmm, the tests first.');
  });

  it('a decision reads as one line saying who answered', () => {
    const cases: Array<[Parameters<typeof resolutionText>[0], string]> = [
      [{ decidedBy: 'user', optionKind: 'allow_always' }, 'Allowed by you'],
      [{ decidedBy: 'user', optionKind: 'reject_once' }, 'Rejected by you'],
      [{ decidedBy: 'policy', optionKind: 'allow_once' }, 'Allowed by policy (accept-edits)'],
      [{ decidedBy: 'cancelled', reason: 'the turn was stopped' }, 'Cancelled: the turn was stopped'],
    ];
    for (const [resolution, text] of cases) expect(resolutionText(resolution, 'accept-edits')).to.equal(text);
  });
});
