import { expect } from 'chai';
import { createApprovalBroker } from '../../../src/daemon/approvals/approvalBroker';
import { RECENT_APPROVAL_IDS } from '../../../src/daemon/approvals/recentIds';
import type { ApprovalDecision, ApprovalQuestion, PermissionMode } from '../../../src/protocol/approvals';

const command: ApprovalQuestion = {
  subject: { kind: 'execute', title: 'Run touch x', command: 'touch x', paths: [] },
  options: [
    { optionId: 'yes', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'no', name: 'Reject', kind: 'reject_once' },
  ],
};

function brokerWith(permissionMode: PermissionMode = 'ask') {
  const frames: { method: string; params: Record<string, any> }[] = [];
  let next = 0;
  const broker = createApprovalBroker({ threadId: 'thr_a', cwd: '/work/p', permissionMode, newApprovalId: () => `apr_${++next}` });
  const askUser = broker.askUserVia((frame) => frames.push(frame as (typeof frames)[number]));
  return {
    broker,
    askUser,
    frames,
    methods: () => frames.map((f) => `${f.method} ${f.params.approvalId} ${f.params.decidedBy ?? ''}`.trim()),
  };
}

const settledNow = async (promise: Promise<ApprovalDecision>) => {
  const marker = Symbol('pending');
  return Promise.race([promise, new Promise<typeof marker>((resolve) => setImmediate(() => resolve(marker)))]).then((value) =>
    typeof value === 'symbol' ? undefined : value,
  );
};

describe('approvals: the broker resolves each question exactly once', () => {
  it('waits for the user: requested now, resolved with the chosen option when answered', async () => {
    const { broker, askUser, frames, methods } = brokerWith('ask');
    const decision = askUser(command);
    expect(await settledNow(decision)).to.equal(undefined);
    expect(methods()).to.deep.equal(['approval/requested apr_1']);
    expect(frames[0]!.params).to.deep.include({
      threadId: 'thr_a',
      permissionMode: 'ask',
      subject: command.subject,
      options: command.options,
    });
    expect(broker.pendingApprovalIds()).to.deep.equal(['apr_1']);
    expect(broker.answer('apr_1', 'no')).to.deep.equal({ outcome: 'answered', optionId: 'no', optionKind: 'reject_once' });
    expect(await decision).to.deep.equal({ outcome: 'selected', optionId: 'no', optionKind: 'reject_once', decidedBy: 'user' });
    expect(methods()).to.deep.equal(['approval/requested apr_1', 'approval/resolved apr_1 user']);
    expect(frames[1]!.params).to.deep.equal({
      threadId: 'thr_a',
      approvalId: 'apr_1',
      decidedBy: 'user',
      optionId: 'no',
      optionKind: 'reject_once',
    });
    expect(broker.pendingApprovalIds()).to.deep.equal([]);
  });

  it('answers a second answer already-answered, an unknown id unknown, an option not offered with the offered ids', async () => {
    const { broker, askUser, methods } = brokerWith('ask');
    const decision = askUser(command);
    expect(broker.answer('apr_1', 'maybe')).to.deep.equal({ outcome: 'unknown-option', optionIds: ['yes', 'no'] });
    expect(broker.answer('apr_nope', 'yes')).to.deep.equal({ outcome: 'unknown' });
    expect(broker.answer('apr_1', 'yes').outcome).to.equal('answered');
    expect(broker.answer('apr_1', 'no')).to.deep.equal({ outcome: 'already-answered' });
    broker.cancelAll('stopped by the user');
    expect(await decision).to.include({ outcome: 'selected', optionId: 'yes' });
    expect(methods()).to.deep.equal(['approval/requested apr_1', 'approval/resolved apr_1 user']);
  });

  it('a stop cancels every open question once, with its reason; a later answer is already-answered', async () => {
    const { broker, askUser, frames, methods } = brokerWith('ask');
    const first = askUser(command);
    const second = askUser(command);
    broker.cancelAll('stopped by the user');
    broker.cancelAll('the host daemon is shutting down');
    const cancelled = { outcome: 'cancelled', decidedBy: 'cancelled', reason: 'stopped by the user' };
    expect(await first).to.deep.equal(cancelled);
    expect(await second).to.deep.equal(cancelled);
    expect(methods()).to.deep.equal([
      'approval/requested apr_1',
      'approval/requested apr_2',
      'approval/resolved apr_1 cancelled',
      'approval/resolved apr_2 cancelled',
    ]);
    expect(frames[2]!.params.reason).to.equal('stopped by the user');
    expect(broker.answer('apr_2', 'yes')).to.deep.equal({ outcome: 'already-answered' });
  });

  it('the provider’s AbortSignal cancels its question; one aborted before asking is cancelled at once', async () => {
    const { broker, askUser, methods } = brokerWith('ask');
    const controller = new AbortController();
    const decision = askUser(command, controller.signal);
    controller.abort(new Error('the agent process exited'));
    expect(await decision).to.deep.equal({ outcome: 'cancelled', decidedBy: 'cancelled', reason: 'the agent process exited' });
    expect(broker.answer('apr_1', 'yes')).to.deep.equal({ outcome: 'already-answered' });
    expect(await askUser(command, AbortSignal.abort())).to.include({ outcome: 'cancelled' });
    expect(methods()).to.deep.equal([
      'approval/requested apr_1',
      'approval/resolved apr_1 cancelled',
      'approval/requested apr_2',
      'approval/resolved apr_2 cancelled',
    ]);
  });

  it('the policy answers at once (both frames, decidedBy policy with its reason); a mode change applies to the next question', async () => {
    const { broker, askUser, frames, methods } = brokerWith('ask');
    const waiting = askUser(command);
    broker.permissionMode = 'full-access';
    expect(await askUser(command)).to.deep.equal({ outcome: 'selected', optionId: 'yes', optionKind: 'allow_once', decidedBy: 'policy' });
    expect(methods()).to.deep.equal(['approval/requested apr_1', 'approval/requested apr_2', 'approval/resolved apr_2 policy']);
    expect(frames[1]!.params.permissionMode).to.equal('full-access');
    expect(frames[2]!.params.reason).to.equal('full-access allows every tool call');
    expect(broker.pendingApprovalIds()).to.deep.equal(['apr_1']);
    broker.cancelAll('done');
    await waiting;
  });

  it('a mode that would allow it but has no allow option to choose cancels with the reason', async () => {
    const { askUser, frames } = brokerWith('full-access');
    const decision = await askUser({ ...command, options: [command.options[1]!] });
    expect(decision).to.include({ outcome: 'cancelled', decidedBy: 'cancelled' });
    expect(frames.map((f) => f.method)).to.deep.equal(['approval/requested', 'approval/resolved']);
    expect(frames[1]!.params.reason).to.contain('no option that allows it');
  });

  it(`remembers the last ${RECENT_APPROVAL_IDS} answered ids, not more`, async () => {
    const { broker, askUser } = brokerWith('full-access');
    for (let i = 0; i <= RECENT_APPROVAL_IDS; i++) await askUser(command);
    expect(broker.answer('apr_1', 'yes')).to.deep.equal({ outcome: 'unknown' });
    expect(broker.answer('apr_2', 'yes')).to.deep.equal({ outcome: 'already-answered' });
  });
});
