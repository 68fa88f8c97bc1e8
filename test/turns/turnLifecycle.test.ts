import { expect } from 'chai';
import { parseFrame } from '../../src/protocol/parseFrame';
import { restoreTurnState } from '../../src/turns/restoreTurnState';
import { RUN_LOST_MESSAGE, type DriverInput, type RuleInput } from '../../src/turns/ruleInput';
import { reduceTurn } from '../../src/turns/turnRules';
import { INITIAL_TURN_STATE, type ThreadTurnState, type TurnFact } from '../../src/turns/turnState';
import type { StoredThreadEvent } from '../../src/store/eventStore';
import { sequentialIds } from '../helpers/pipeline/marbles';
import * as b from '../helpers/pipeline/sdk';
import * as a from '../helpers/pipeline/acp';
import { approvalRequestedFrame, approvalResolvedFrame, type ApprovalDecider } from '../../src/protocol/approvals';

const T = 'thr_1';
const grace = (turnId: string): DriverInput => ({ kind: 'graceElapsed', threadId: T, turnId });
const isDriverInput = (value: unknown): value is DriverInput => typeof value === 'object' && value !== null && 'kind' in value;

/** A stored row of thread T, for restores; `turnId` defaults to a turn of an earlier process. */
const row = (seq: number, type: string, data: Record<string, unknown>, turnId: string | null = 'old'): StoredThreadEvent =>
  ({
    id: `r${seq}`,
    threadId: T,
    seq,
    type,
    turnId,
    scope: turnId === null ? { kind: 'thread' } : { kind: 'turn', turnId },
    data: { providerThreadId: T, ...data },
    createdAt: '',
  }) as StoredThreadEvent;

/** Folds wire frames and driver inputs through the pure rules; facts as `kind[:detail]@turn`, graces started as `grace@turn`. */
function run(inputs: unknown[], initial: ThreadTurnState = INITIAL_TURN_STATE) {
  const newId = sequentialIds('t');
  let state = initial;
  const out: string[] = [];
  for (const value of inputs) {
    let input: RuleInput;
    if (isDriverInput(value)) input = value;
    else {
      const parsed = parseFrame(value);
      if (!('input' in parsed)) throw new Error(`fixture frame rejected: ${JSON.stringify(parsed.error)}`);
      input = parsed.input;
    }
    const step = reduceTurn(state, input, newId);
    state = step.state;
    out.push(...step.facts.map(summarise));
    if (step.graceFor) out.push(`grace@${step.graceFor}`);
  }
  return { state, out };
}

function summarise(fact: TurnFact): string {
  const at = `@${fact.turnId ?? 'thread'}`;
  switch (fact.kind) {
    case 'turnCompleted':
      return `turnCompleted:${fact.status}${fact.error ? `(${fact.error.message})` : ''}${at}`;
    case 'unhandled':
      return `unhandled:${fact.rawType}${at}`;
    case 'approvalRequested':
      return `approvalRequested:${fact.request.approvalId}${at}`;
    case 'approvalResolved':
      return `approvalResolved:${fact.resolution.approvalId}:${fact.resolution.decidedBy}${at}`;
    default:
      return `${fact.kind}${at}`;
  }
}

const running = [
  b.promptStarted(T),
  b.sdk(T, b.agentStart()),
  b.sdk(T, b.messageStart(b.assistantMessage(''))),
  b.sdk(T, b.textDelta('Hi')),
];
const opened = ['turnStarted@t1', 'itemStarted@t1', 'itemDelta@t1'];
const abortedEnd = b.sdk(T, b.agentEnd([b.assistantMessage('Hi', { stopReason: 'aborted' })]));

describe('turn lifecycle: a turn ends once nothing can end it any more (issue 12)', () => {
  it('a stop while the run streams starts the grace; the aborted agent_end within it closes the turn once as interrupted', () => {
    const { out, state } = run([...running, b.stop(T), abortedEnd, grace('t1')]);
    expect(out).to.deep.equal([
      ...opened,
      'grace@t1',
      'itemCompleted@t1',
      'tokenUsage@t1',
      'turnCompleted:interrupted@t1',
      'contextWindowUsage@t1',
    ]);
    expect(state.turn).to.equal(null);
  });

  it('a stop whose run never reports its end closes the turn as interrupted when the grace ends', () => {
    const { out, state } = run([...running, b.stop(T), b.stop(T), grace('t1')]);
    expect(out).to.deep.equal([...opened, 'grace@t1', 'itemCompleted@t1', 'turnCompleted:interrupted@t1']);
    expect(state.turn).to.equal(null);
    expect(state.orphanRun).to.equal(true);
  });

  it('events the closed run sends late are kept as thread-scoped provider/unhandled rows; its agent_end is the last one', () => {
    const late = [
      b.sdk(T, b.textDelta('lo')),
      b.sdk(T, b.toolStart('c1', 'bash', { command: 'ls' })),
      b.sdk(T, b.messageEnd(b.assistantMessage('Hilo'))),
      abortedEnd,
    ];
    const { out, state } = run([...running, b.stop(T), grace('t1'), ...late, b.promptSettled(T)]);
    expect(out.slice(opened.length + 3)).to.deep.equal([
      'unhandled:sdk/message_update@thread',
      'unhandled:sdk/tool_execution_start@thread',
      'unhandled:sdk/message_end@thread',
      'unhandled:sdk/agent_end@thread',
    ]);
    expect(state.orphanRun).to.equal(false);
    expect(state.turn).to.equal(null);
  });

  it('a new run after a closed one opens a new turn, whatever the old run still had to say', () => {
    const { out } = run([
      ...running,
      b.stop(T),
      grace('t1'),
      b.promptStarted(T),
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.agentEnd([b.assistantMessage('New')])),
      b.promptSettled(T),
    ]);
    expect(out.slice(opened.length + 3)).to.deep.equal([
      'turnStarted@t3',
      'itemStarted@t3',
      'itemCompleted@t3',
      'tokenUsage@t3',
      'turnCompleted:completed@t3',
      'contextWindowUsage@t3',
    ]);
  });

  it('a settle with an error while the run streams closes the turn failed with that error when no agent_end follows within the grace', () => {
    const { out } = run([...running, b.promptSettled(T, { message: 'SDK rejected the prompt' }), grace('t1'), abortedEnd]);
    expect(out).to.deep.equal([
      ...opened,
      'grace@t1',
      'itemCompleted@t1',
      'turnCompleted:failed(SDK rejected the prompt)@t1',
      'unhandled:sdk/agent_end@thread',
    ]);
  });

  it('a settle with an error followed by the run’s agent_end within the grace: the agent_end closes the turn, the grace finds nothing', () => {
    const end = b.sdk(T, b.agentEnd([b.assistantMessage('', { stopReason: 'error', errorMessage: 'overloaded' })]));
    const { out } = run([...running, b.promptSettled(T, 'overloaded'), end, grace('t1')]);
    expect(out).to.deep.equal([
      ...opened,
      'grace@t1',
      'itemCompleted@t1',
      'tokenUsage@t1',
      'turnCompleted:failed(overloaded)@t1',
      'contextWindowUsage@t1',
    ]);
  });

  it('a settle without an error while the run streams waits for agent_end (E5) and starts no grace', () => {
    const { out, state } = run([...running, b.promptSettled(T)]);
    expect(out).to.deep.equal(opened);
    expect(state.turn?.closesAfterGrace).to.equal(false);
  });

  it('a grace of an earlier turn never closes the next one', () => {
    const { out, state } = run([...running, b.stop(T), abortedEnd, b.sdk(T, b.agentStart()), grace('t1')]);
    expect(out.at(-1)).to.equal('turnStarted@t3');
    expect(state.turn?.id).to.equal('t3');
  });

  it('one grace per turn: a stop after a failed settle closes it as interrupted at the first deadline', () => {
    const { out } = run([...running, b.promptSettled(T, 'boom'), b.stop(T), grace('t1')]);
    expect(out).to.deep.equal([...opened, 'grace@t1', 'itemCompleted@t1', 'turnCompleted:interrupted@t1']);
  });

  describe('restored: a run belongs to a process', () => {
    const openTurnOf = (epoch?: string) => [
      row(1, 'turn/started', { origin: 'client', ...(epoch ? { processEpoch: epoch } : {}) }),
      row(2, 'item/started', { item: { type: 'commandExecution', id: 'c1', command: 'make', status: 'inProgress', aggregatedOutput: '' } }),
    ];
    const restored = (rows: StoredThreadEvent[], processEpoch = 'now'): DriverInput => ({
      kind: 'restored',
      threadId: T,
      state: restoreTurnState(rows),
      processEpoch,
    });

    it('closes a turn left open by a run of an earlier process: its open tools fail first, then interrupted with the reason', () => {
      const { out, state } = run([restored(openTurnOf('before'))]);
      expect(out).to.deep.equal(['toolCompleted@old', `turnCompleted:interrupted(${RUN_LOST_MESSAGE})@old`]);
      expect(state.turn).to.equal(null);
    });

    it('treats a turn from before epochs were stamped as an earlier process’s', () => {
      expect(run([restored(openTurnOf())]).out.at(-1)).to.equal(`turnCompleted:interrupted(${RUN_LOST_MESSAGE})@old`);
    });

    it('the next prompt after the restore starts a new client turn; the old run’s stop and settle find nothing to do', () => {
      const { out } = run([
        restored(openTurnOf('before')),
        b.stop(T),
        b.promptSettled(T, 'lost'),
        b.promptStarted(T),
        b.sdk(T, b.agentStart()),
      ]);
      expect(out.slice(2)).to.deep.equal(['turnStarted@t1']);
    });

    it('keeps a turn of this process open (read again after a failed append), with its id', () => {
      const { out, state } = run([restored(openTurnOf('now')), b.sdk(T, b.agentEnd([b.assistantMessage('Done')]))]);
      expect(out).to.deep.equal([
        'toolCompleted@old',
        'itemStarted@old',
        'itemCompleted@old',
        'tokenUsage@old',
        'turnCompleted:completed@old',
        'contextWindowUsage@old',
      ]);
      expect(state.turn).to.equal(null);
    });

    it('keeps the agent_end of a run an earlier process already closed as a thread-scoped row (a second restart)', () => {
      const closedBefore = [
        ...openTurnOf('first'),
        row(3, 'item/completed', {}),
        row(4, 'turn/completed', { status: 'interrupted', error: { message: RUN_LOST_MESSAGE } }),
      ];
      const { out, state } = run([restored(closedBefore), b.sdk(T, b.agentEnd([b.assistantMessage('Done')]))]);
      expect(out).to.deep.equal(['unhandled:sdk/agent_end@thread']);
      expect(state.turn).to.equal(null);
    });

    it('does nothing for a thread whose turns are all closed', () => {
      expect(
        run([restored([...openTurnOf('before'), row(3, 'turn/completed', { status: 'completed', providerCheckpointId: 'x' })])]).out,
      ).to.deep.equal([]);
    });
  });

  describe('approvals: a question is answered once, and never outlives its turn (issue 27)', () => {
    const asked = (approvalId: string) =>
      approvalRequestedFrame({
        threadId: T,
        approvalId,
        subject: { kind: 'execute', title: 'rm -rf build', command: 'rm -rf build', paths: [] },
        options: [
          { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
          { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
        ],
        permissionMode: 'ask',
      });
    const answered = (approvalId: string, decidedBy: ApprovalDecider = 'user') =>
      approvalResolvedFrame({
        threadId: T,
        approvalId,
        decidedBy,
        ...(decidedBy === 'cancelled' ? { reason: 'the agent died' } : { optionId: 'allow', optionKind: 'allow_once' as const }),
      });

    it('a question inside a turn is stored in it, and its answer too; nothing is pending after the answer', () => {
      const { out, state } = run([...running, asked('ap1'), answered('ap1')]);
      expect(out.slice(opened.length)).to.deep.equal(['itemCompleted@t1', 'approvalRequested:ap1@t1', 'approvalResolved:ap1:user@t1']);
      expect(state.pendingApprovalIds).to.deep.equal([]);
    });

    it('an answer to a question already answered, or never asked, stores nothing (the daemon’s cancel and the turn end never duplicate)', () => {
      const { out, state } = run([...running, asked('ap1'), asked('ap1'), answered('ap1'), answered('ap1', 'cancelled'), answered('ap9')]);
      expect(out.slice(opened.length)).to.deep.equal(['itemCompleted@t1', 'approvalRequested:ap1@t1', 'approvalResolved:ap1:user@t1']);
      expect(state.pendingApprovalIds).to.deep.equal([]);
    });

    it('keeps the ids of open questions in order in the state (plain data)', () => {
      const { state } = run([...running, asked('ap1'), asked('ap2'), asked('ap3'), answered('ap2')]);
      expect(state.pendingApprovalIds).to.deep.equal(['ap1', 'ap3']);
    });

    it('a question asked while no turn is open is thread-scoped, and is cancelled before the next turn starts', () => {
      const { out, state } = run([asked('ap1'), b.promptStarted(T), b.sdk(T, b.agentStart())]);
      expect(out).to.deep.equal(['approvalRequested:ap1@thread', 'approvalResolved:ap1:cancelled@thread', 'turnStarted@t1']);
      expect(state.pendingApprovalIds).to.deep.equal([]);
    });

    it('E2 with a question open: the agent_end cancels it before the turn completes', () => {
      const { out } = run([...running, asked('ap1'), b.sdk(T, b.agentEnd([b.assistantMessage('Hi')]))]);
      expect(out.slice(opened.length + 2)).to.deep.equal([
        'approvalResolved:ap1:cancelled@t1',
        'tokenUsage@t1',
        'turnCompleted:completed@t1',
        'contextWindowUsage@t1',
      ]);
    });

    it('a stop with a question open: the question is cancelled, then the turn completes interrupted, once', () => {
      const { out, state } = run([...running, asked('ap1'), b.stop(T), abortedEnd, answered('ap1', 'cancelled'), grace('t1')]);
      expect(out.slice(opened.length + 2)).to.deep.equal([
        'grace@t1',
        'approvalResolved:ap1:cancelled@t1',
        'tokenUsage@t1',
        'turnCompleted:interrupted@t1',
        'contextWindowUsage@t1',
      ]);
      expect(state.pendingApprovalIds).to.deep.equal([]);
    });

    it('a grace that elapses with a question open cancels it before the failed turn', () => {
      const { out } = run([...running, asked('ap1'), b.promptSettled(T, 'the agent died'), grace('t1')]);
      expect(out.slice(opened.length + 2)).to.deep.equal([
        'grace@t1',
        'approvalResolved:ap1:cancelled@t1',
        'turnCompleted:failed(the agent died)@t1',
      ]);
    });

    it('an ACP prompt that ends (answered or failed) cancels its open questions first', () => {
      const ends = [[b.stop(T), a.ended(T, 'cancelled')], [a.ended(T, 'end_turn')], [a.acpPromptFailed(T, 'the agent exited (code 1)')]];
      const closings = ends.map((end) => {
        const { out } = run([a.started(T), asked('ap1'), ...end]);
        expect(out.filter((fact) => !fact.startsWith('grace@')).slice(1, 3)).to.deep.equal([
          'approvalRequested:ap1@t1',
          'approvalResolved:ap1:cancelled@t1',
        ]);
        return out.at(-1);
      });
      expect(closings).to.deep.equal([
        'turnCompleted:interrupted@t1',
        'turnCompleted:completed@t1',
        'turnCompleted:failed(the agent exited (code 1))@t1',
      ]);
    });

    it('restore rebuilds the open questions from rows; a lost run cancels them before its interrupted turn', () => {
      const question = (seq: number, type: string, approvalId: string, turnId: string | null = 'old') =>
        row(seq, type, { approvalId, decidedBy: 'user' }, turnId);
      const rows = [
        question(1, 'approval/requested', 'ap0', null),
        question(2, 'approval/resolved', 'ap0', null),
        row(3, 'turn/started', { origin: 'client', processEpoch: 'before' }),
        question(4, 'approval/requested', 'ap1'),
        question(5, 'approval/requested', 'ap2'),
        question(6, 'approval/resolved', 'ap1'),
      ];
      expect(restoreTurnState(rows).pendingApprovalIds).to.deep.equal(['ap2']);
      const { out } = run([{ kind: 'restored', threadId: T, state: restoreTurnState(rows), processEpoch: 'now' }]);
      expect(out).to.deep.equal(['approvalResolved:ap2:cancelled@old', `turnCompleted:interrupted(${RUN_LOST_MESSAGE})@old`]);
    });
  });
});
