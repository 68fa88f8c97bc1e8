import { expect } from 'chai';
import { VirtualTimeScheduler } from 'rxjs';
import { createThreadIngest } from '../../src/ingest/threadIngest';
import { createMemoryEventStore } from '../../src/store/memoryEventStore';
import { RUN_LOST_MESSAGE } from '../../src/turns/ruleInput';
import { threadViolations } from '../helpers/pipeline/invariants';
import * as b from '../helpers/pipeline/sdk';
import { approvalRequestedFrame, approvalResolvedFrame } from '../../src/protocol/approvals';

const T = 'A';
const running = [
  b.promptStarted(T),
  b.sdk(T, b.agentStart()),
  b.sdk(T, b.messageStart(b.assistantMessage(''))),
  b.sdk(T, b.textDelta('Hal')),
];

/** An ingest on virtual time: graces end only when the test says their time has passed. */
function ingestOnVirtualTime(store = createMemoryEventStore()) {
  const clock = new VirtualTimeScheduler();
  const ingest = createThreadIngest({ store, scheduler: clock, turnGraceMs: 5_000 });
  const send = async (frames: unknown[]) => {
    for (const frame of frames) {
      const outcome = await ingest.ingest(frame);
      if (!outcome.ok) throw new Error(`rejected: ${outcome.error.message}`);
    }
  };
  /** The grace's time passes; resolves once the rows it wrote are stored. */
  const graceEnds = async () => {
    clock.flush();
    await ingest.elapseGraces(); // waits for the graces that just fired to be stored
  };
  return { store, clock, ingest, send, graceEnds };
}

const completions = async (store: ReturnType<typeof createMemoryEventStore>) =>
  (await store.list(T))
    .filter((row) => row.type === 'turn/completed')
    .map((row) => ({ status: row.data['status'], error: (row.data['error'] as { message?: string } | undefined)?.message }));

describe('turn grace in the ingest (virtual time)', () => {
  it('a stop whose run never ends keeps the thread active during the grace, then completes the turn interrupted once', async () => {
    const { store, ingest, send, graceEnds } = ingestOnVirtualTime();
    await send([...running, b.stop(T)]);
    expect(await ingest.threadStatus(T)).to.equal('active');
    await graceEnds();
    expect(await ingest.threadStatus(T)).to.equal('idle');
    expect(await completions(store)).to.deep.equal([{ status: 'interrupted', error: undefined }]);
    // The aborted run reports its end after all: kept, outside the closed turn, never a second completion.
    await send([b.sdk(T, b.agentEnd([b.assistantMessage('Hal', { stopReason: 'aborted' })])), b.promptSettled(T)]);
    const rows = await store.list(T);
    expect(rows.at(-1)).to.deep.include({ type: 'provider/unhandled', turnId: null, scope: { kind: 'thread' } });
    expect(await completions(store)).to.deep.equal([{ status: 'interrupted', error: undefined }]);
    expect(threadViolations(rows)).to.deep.equal([]);
    await ingest.close();
  });

  it('a stop answered by the aborted agent_end within the grace closes the turn then; the grace later finds nothing', async () => {
    const { store, ingest, send, graceEnds } = ingestOnVirtualTime();
    await send([...running, b.stop(T), b.sdk(T, b.agentEnd([b.assistantMessage('Hal', { stopReason: 'aborted' })]))]);
    await graceEnds();
    expect(await completions(store)).to.deep.equal([{ status: 'interrupted', error: undefined }]);
    expect(threadViolations(await store.list(T))).to.deep.equal([]);
    await ingest.close();
  });

  it('a settle with an error and no agent_end closes the turn failed with that error when the grace ends', async () => {
    const { store, ingest, send, graceEnds } = ingestOnVirtualTime();
    await send([...running, b.promptSettled(T, { message: 'the external agent died' })]);
    expect(await ingest.threadStatus(T)).to.equal('active');
    await graceEnds();
    expect(await completions(store)).to.deep.equal([{ status: 'failed', error: 'the external agent died' }]);
    // The next prompt is a new turn, not a follow-up merged into the failed one.
    await send(b.clientTurn(T, 'again', ['fresh']));
    const rows = await store.list(T);
    expect(threadViolations(rows)).to.deep.equal([]);
    expect(new Set(rows.filter((row) => row.type === 'turn/started').map((row) => row.turnId)).size).to.equal(2);
    await ingest.close();
  });

  it('closing drops pending graces; the next process closes the turn on restore as a run it lost', async () => {
    const { store, ingest, send } = ingestOnVirtualTime();
    await send([...running, b.stop(T)]);
    await ingest.close();
    const next = ingestOnVirtualTime(store);
    expect(await next.ingest.threadStatus(T)).to.equal('idle');
    expect(await completions(store)).to.deep.equal([{ status: 'interrupted', error: RUN_LOST_MESSAGE }]);
    await next.ingest.close();
  });

  it('a stop after a restart finds no turn: the dead one was closed on restore, so the idle session’s silence leaves nothing open', async () => {
    const store = createMemoryEventStore();
    const first = ingestOnVirtualTime(store);
    await first.send(running);
    await first.ingest.close();
    const next = ingestOnVirtualTime(store);
    const stop = await next.ingest.ingest(b.stop(T));
    expect(stop.ok && stop.rows.map((row) => row.type)).to.deep.equal([]);
    expect(await next.ingest.threadStatus(T)).to.equal('idle');
    const rows = await store.list(T);
    expect(rows.filter((row) => row.type === 'turn/completed')).to.have.lengthOf(1);
    expect(threadViolations(rows)).to.deep.equal([]);
    await next.ingest.close();
  });

  describe('open questions (issue 27)', () => {
    const asked = (approvalId: string) =>
      approvalRequestedFrame({
        threadId: T,
        approvalId,
        subject: { kind: 'execute', title: 'make', command: 'make', paths: [] },
        options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }],
        permissionMode: 'ask',
      });
    const answered = (approvalId: string) =>
      approvalResolvedFrame({ threadId: T, approvalId, decidedBy: 'user', optionId: 'ok', optionKind: 'allow_once' });

    it('promptAwaitingRun: a prompt taken and no run yet (the status still idle), until its run begins or it is refused', async () => {
      const { ingest, send } = ingestOnVirtualTime();
      expect(await ingest.promptAwaitingRun(T)).to.equal(false);
      await send([b.promptStarted(T)]);
      expect([await ingest.threadStatus(T), await ingest.promptAwaitingRun(T)]).to.deep.equal(['idle', true]);
      await send([b.sdk(T, b.agentStart())]);
      expect([await ingest.threadStatus(T), await ingest.promptAwaitingRun(T)]).to.deep.equal(['active', false]);
      await send([b.sdk(T, b.agentEnd([b.assistantMessage('Hi')])), b.promptSettled(T)]);
      expect([await ingest.threadStatus(T), await ingest.promptAwaitingRun(T)]).to.deep.equal(['idle', false]);
      await send([b.promptStarted(T)]);
      expect(await ingest.promptAwaitingRun(T)).to.equal(true);
      await send([b.promptSettled(T, 'No API key')]);
      expect([await ingest.threadStatus(T), await ingest.promptAwaitingRun(T)]).to.deep.equal(['idle', false]);
      await ingest.close();
    });

    it('pendingApprovalIds lists the questions nobody answered yet, and none once answered', async () => {
      const { ingest, send } = ingestOnVirtualTime();
      expect(await ingest.pendingApprovalIds(T)).to.deep.equal([]);
      await send([...running, asked('ap1'), asked('ap2')]);
      expect(await ingest.pendingApprovalIds(T)).to.deep.equal(['ap1', 'ap2']);
      await send([answered('ap1')]);
      expect(await ingest.pendingApprovalIds(T)).to.deep.equal(['ap2']);
      await ingest.close();
    });

    it('a grace that elapses with a question open resolves it cancelled before the failed turn, and nothing is pending after', async () => {
      const { store, ingest, send, graceEnds } = ingestOnVirtualTime();
      await send([...running, asked('ap1'), b.promptSettled(T, 'the agent stopped answering')]);
      await graceEnds();
      const rows = await store.list(T);
      expect(rows.slice(-2).map((row) => [row.type, row.data['decidedBy'] ?? row.data['status']])).to.deep.equal([
        ['approval/resolved', 'cancelled'],
        ['turn/completed', 'failed'],
      ]);
      expect(await ingest.pendingApprovalIds(T)).to.deep.equal([]);
      expect(threadViolations(rows)).to.deep.equal([]);
      await ingest.close();
    });

    it('a restarted ingest reads the open questions back from the rows, and cancels those of the run it lost', async () => {
      const store = createMemoryEventStore();
      const first = ingestOnVirtualTime(store);
      await first.send([...running, asked('ap1')]);
      await first.ingest.close();
      const next = ingestOnVirtualTime(store);
      expect(await next.ingest.pendingApprovalIds(T)).to.deep.equal([]);
      const rows = await store.list(T);
      expect(rows.slice(-2).map((row) => [row.type, row.data['decidedBy'] ?? row.data['status']])).to.deep.equal([
        ['approval/resolved', 'cancelled'],
        ['turn/completed', 'interrupted'],
      ]);
      await next.ingest.close();
    });
  });
});
