import { expect } from 'chai';
import { map } from 'rxjs';
import { threadEvents } from '../../pipelines/thread-events';
import { approvalRequestedFrame, approvalResolvedFrame, type ApprovalResolvedParams } from '../../src/protocol/approvals';
import { THREAD_STOP_METHOD } from '../../src/protocol/signals';
import { createMemoryEventStore } from '../../src/store/memoryEventStore';
import type { StoredThreadEvent } from '../../src/store/eventStore';
import { sequentialIds, testScheduler } from '../helpers/pipeline/marbles';
import * as a from '../helpers/pipeline/acp';
import * as b from '../helpers/pipeline/sdk';
import { runPipeline, typesOf } from '../helpers/pipeline/run';

const T = 'thr_ask';
const marbleFrames = (frames: unknown[]) =>
  Object.fromEntries(frames.map((frame, i) => [String.fromCharCode(97 + i), { correlationId: i + 1, frame }]));
const stop = { jsonrpc: '2.0', method: THREAD_STOP_METHOD, params: { threadId: T } };
const subject = { kind: 'execute', title: 'touch out.txt', toolCallId: 'toolu_1', command: 'touch out.txt', paths: ['/work/out.txt'] };
const options = [
  { optionId: 'allow-once', name: 'Allow', kind: 'allow_once' as const },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' as const },
];
const asked = (approvalId: string) => approvalRequestedFrame({ threadId: T, approvalId, subject, options, permissionMode: 'ask' });
const answered = (approvalId: string, fields: Partial<ApprovalResolvedParams> = {}) =>
  approvalResolvedFrame({ threadId: T, approvalId, decidedBy: 'user', optionId: 'allow-once', optionKind: 'allow_once', ...fields });

/** A row as `type turnId [approvalId decidedBy | status]`. */
function summary(row: StoredThreadEvent): string {
  const data = row.data as Record<string, unknown>;
  const detail =
    row.type === 'approval/requested'
      ? ` ${String(data['approvalId'])}`
      : row.type === 'approval/resolved'
        ? ` ${String(data['approvalId'])} ${String(data['decidedBy'])}`
        : row.type === 'turn/completed'
          ? ` ${String(data['status'])}`
          : '';
  return `${row.type} ${row.turnId ?? 'thread'}${detail}`;
}

function expectRows(frames: unknown[], marbles: string, expected: Record<string, string[]>): void {
  testScheduler().run(({ cold, expectObservable }) => {
    const steps = cold(marbles, marbleFrames(frames)).pipe(
      threadEvents({ store: createMemoryEventStore(), newId: sequentialIds('t') }),
      map((step) => (step.ok ? step.value.rows.map(summary) : [step.error.message])),
    );
    expectObservable(steps).toBe(marbles, expected);
  });
}

describe('thread-events pipeline: approvals (issue 27)', () => {
  it('a question and its answer are two rows of the open turn (E7), each with what the page shows', async () => {
    expectRows([a.started(T), asked('ap1'), answered('ap1'), a.ended(T)], 'abcd|', {
      a: ['turn/started t1'],
      b: ['approval/requested t1 ap1'],
      c: ['approval/resolved t1 ap1 user'],
      d: ['turn/completed t1 completed'],
    });
    const { rows } = await runPipeline([a.started(T), asked('ap1'), answered('ap1')]);
    expect(rows[1]?.data).to.deep.equal({ providerThreadId: T, approvalId: 'ap1', subject, options, permissionMode: 'ask' });
    expect(rows[2]?.data).to.deep.equal({
      providerThreadId: T,
      approvalId: 'ap1',
      decidedBy: 'user',
      optionId: 'allow-once',
      optionKind: 'allow_once',
    });
  });

  it('an answer is stored once: a second answer, a late cancel or an unknown id stores nothing', () => {
    const frames = [
      a.started(T),
      asked('ap1'),
      answered('ap1'),
      answered('ap1', { decidedBy: 'cancelled', reason: 'stop' }),
      answered('ap7'),
    ];
    expectRows(frames, 'abcde|', {
      a: ['turn/started t1'],
      b: ['approval/requested t1 ap1'],
      c: ['approval/resolved t1 ap1 user'],
      d: [],
      e: [],
    });
  });

  it('a question the policy answers gets both rows at once, and the text before it is an item of its own', () => {
    const frames = [a.started(T), a.chunk(T, 'Editing.'), asked('ap1'), answered('ap1', { decidedBy: 'policy', reason: 'accept-edits' })];
    expectRows(frames, 'abcd|', {
      a: ['turn/started t1'],
      b: ['item/started t1', 'item/agentMessage/delta t1'],
      c: ['item/completed t1', 'approval/requested t1 ap1'],
      d: ['approval/resolved t1 ap1 policy'],
    });
  });

  it('a stop with a question open: resolved cancelled, then turn/completed interrupted; the daemon’s own cancel adds nothing', async () => {
    const frames = [a.started(T), asked('ap1'), stop, a.ended(T, 'cancelled'), answered('ap1', { decidedBy: 'cancelled' })];
    expectRows(frames, 'abcde|', {
      a: ['turn/started t1'],
      b: ['approval/requested t1 ap1'],
      c: [],
      d: ['approval/resolved t1 ap1 cancelled', 'turn/completed t1 interrupted'],
      e: [],
    });
    const { rows } = await runPipeline(frames);
    expect(rows.find((row) => row.type === 'approval/resolved')?.data).to.deep.equal({
      providerThreadId: T,
      approvalId: 'ap1',
      decidedBy: 'cancelled',
      reason: 'the turn ended before anyone answered',
    });
  });

  it('a question asked outside any turn is thread-scoped, and a new turn cancels it before it starts (E1)', () => {
    expectRows([asked('ap1'), b.promptStarted(T), b.sdk(T, b.agentStart())], 'abc|', {
      a: ['approval/requested thread ap1'],
      b: [],
      c: ['approval/resolved thread ap1 cancelled', 'turn/started t1'],
    });
  });

  it('rejects approval frames with bad params as Invalid params, and the stream goes on', async () => {
    const { steps, rows } = await runPipeline([
      { jsonrpc: '2.0', method: 'approval/requested', params: { threadId: T, approvalId: 'ap1', subject, options: [] } },
      { jsonrpc: '2.0', method: 'approval/resolved', params: { threadId: T, approvalId: 'ap1', decidedBy: 'somebody' } },
      asked('ap1'),
    ]);
    expect(steps.map((step) => (step.ok ? 'ok' : `${step.error.code} ${step.error.message}`))).to.deep.equal([
      '-32602 Invalid params',
      '-32602 Invalid params',
      'ok',
    ]);
    expect(typesOf(rows)).to.deep.equal(['approval/requested']);
  });
});
