import { expect } from 'chai';
import { scanTurnState } from '../../src/operators/scanTurnState';
import { restoreTurnState } from '../../src/turns/restoreTurnState';
import { INITIAL_TURN_STATE, type ThreadTurnState } from '../../src/turns/turnState';
import type { Step } from '../../src/operators/stageValues';
import type { TurnInput } from '../../src/protocol/turnInput';
import type { StoredThreadEvent } from '../../src/protocol/threadEvents';
import { sequentialIds, testScheduler } from '../helpers/marbles';
import * as b from '../helpers/pipelineSdk';

const sdkStep = (correlationId: number, threadId: string, event: { type: string }): Step<TurnInput> => ({
  correlationId,
  ok: true,
  value: { kind: 'sdk', threadId, event, envelope: b.sdk(threadId, event) },
});

/** A `takeRestoredState` that hands `state` over for `threadId` once, as the ingest does after a store read. */
function handOverOnce(threadId: string, state: ThreadTurnState) {
  let pending: ThreadTurnState | undefined = state;
  return (asked: string) => {
    if (asked !== threadId || !pending) return undefined;
    const taken = pending;
    pending = undefined;
    return taken;
  };
}

describe('scanTurnState()', () => {
  it('keeps turn state per thread when threads interleave in one stream', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const input = cold('a-b-c-d|', {
        a: sdkStep(1, 'A', b.agentStart()),
        b: sdkStep(2, 'B', b.agentStart()),
        c: sdkStep(3, 'A', b.agentEnd([])),
        d: sdkStep(4, 'B', b.agentStart()),
      });
      expectObservable(input.pipe(scanTurnState({ newId: sequentialIds('t') }))).toBe('a-b-c-d|', {
        a: { correlationId: 1, ok: true, value: { threadId: 'A', turnOpen: true, facts: [{ kind: 'turnStarted', origin: 'agent', turnId: 't1' }] } },
        b: { correlationId: 2, ok: true, value: { threadId: 'B', turnOpen: true, facts: [{ kind: 'turnStarted', origin: 'agent', turnId: 't2' }] } },
        c: {
          correlationId: 3,
          ok: true,
          value: {
            threadId: 'A',
            turnOpen: false,
            facts: [
              { kind: 'tokenUsage', turnId: 't1', last: zero, total: zero },
              { kind: 'turnCompleted', status: 'completed', turnId: 't1' },
              { kind: 'contextWindowUsage', usedTokens: 0, estimated: true, turnId: 't1' },
            ],
          },
        },
        d: { correlationId: 4, ok: true, value: { threadId: 'B', turnOpen: true, facts: [] } },
      });
    });
  });

  it('passes a rejected frame through untouched', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const rejected: Step<TurnInput> = { correlationId: 9, ok: false, error: { code: -32600, message: 'Invalid Request' } };
      expectObservable(cold('x|', { x: rejected }).pipe(scanTurnState({ newId: sequentialIds('t') }))).toBe('x|', { x: rejected });
    });
  });

  it('restarts a thread from a state handed over mid-stream (a failed append lost rows it had counted)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      let handOver: ((threadId: string) => ThreadTurnState | undefined) | undefined;
      const deps = { newId: sequentialIds('t'), takeRestoredState: (threadId: string) => handOver?.(threadId) };
      const input = cold('a-b-c|', { a: sdkStep(1, 'A', b.agentStart()), b: sdkStep(2, 'A', b.agentStart()), c: sdkStep(3, 'A', b.agentStart()) });
      const out = input.pipe(scanTurnState(deps));
      // After a, the turn it opened was never stored: the store's state (no turn) is handed over before c.
      cold('---x|').subscribe(() => (handOver = handOverOnce('A', INITIAL_TURN_STATE)));
      expectObservable(out).toBe('a-b-c|', {
        a: { correlationId: 1, ok: true, value: { threadId: 'A', turnOpen: true, facts: [{ kind: 'turnStarted', origin: 'agent', turnId: 't1' }] } },
        b: { correlationId: 2, ok: true, value: { threadId: 'A', turnOpen: true, facts: [] } },
        c: { correlationId: 3, ok: true, value: { threadId: 'A', turnOpen: true, facts: [{ kind: 'turnStarted', origin: 'agent', turnId: 't2' }] } },
      });
    });
  });

  it('continues a restored open turn with its id instead of opening a new one', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const restored = restoreTurnState([
        { id: 'r1', threadId: 'A', seq: 1, type: 'turn/started', turnId: 'old', scope: { kind: 'turn', turnId: 'old' }, data: { providerThreadId: 'A', origin: 'agent' }, createdAt: '' },
      ]);
      const deps = { newId: sequentialIds('t'), takeRestoredState: handOverOnce('A', restored) };
      const input = cold('a-b|', { a: sdkStep(1, 'A', b.agentStart()), b: sdkStep(2, 'A', b.agentEnd([])) });
      expectObservable(input.pipe(scanTurnState(deps))).toBe('a-b|', {
        a: { correlationId: 1, ok: true, value: { threadId: 'A', turnOpen: true, facts: [] } },
        b: {
          correlationId: 2,
          ok: true,
          value: {
            threadId: 'A',
            turnOpen: false,
            facts: [
              { kind: 'tokenUsage', turnId: 'old', last: zero, total: zero },
              { kind: 'turnCompleted', status: 'completed', turnId: 'old' },
              { kind: 'contextWindowUsage', usedTokens: 0, estimated: true, turnId: 'old' },
            ],
          },
        },
      });
    });
  });
});

describe('restoreTurnState() with tool items', () => {
  const row = (seq: number, type: string, data: Record<string, unknown>) =>
    ({ id: `r${seq}`, threadId: 'A', seq, type, turnId: 'old', scope: { kind: 'turn' as const, turnId: 'old' }, data: { providerThreadId: 'A', ...data }, createdAt: '' }) as StoredThreadEvent;
  const command = { type: 'commandExecution', id: 'call_1', command: 'make', status: 'inProgress', aggregatedOutput: '' };
  const rows = [
    row(1, 'turn/started', { origin: 'client' }),
    row(2, 'item/started', { item: { type: 'agentMessage', id: 'm1', text: '' } }),
    row(3, 'item/completed', { item: { type: 'agentMessage', id: 'm1', text: 'Running make.' } }),
    row(4, 'item/started', { item: command }),
    row(5, 'item/commandExecution/outputDelta', { itemId: 'call_1', delta: 'a\n' }),
  ];

  it('continues a command that was running at the restart: its next snapshot adds only what is new, its end completes it', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const deps = { newId: sequentialIds('t'), takeRestoredState: handOverOnce('A', restoreTurnState(rows)) };
      const input = cold('a-b|', { a: sdkStep(1, 'A', b.toolOutput('call_1', 'a\nb\n')), b: sdkStep(2, 'A', b.toolEnd('call_1', 'bash', 'a\nb\n')) });
      const tool = { kind: 'commandExecution', command: 'make', id: 'call_1', output: 'a\nb\n', outputBytes: 4 };
      expectObservable(input.pipe(scanTurnState(deps))).toBe('a-b|', {
        a: { correlationId: 1, ok: true, value: { threadId: 'A', turnOpen: true, facts: [{ kind: 'toolOutputDelta', itemId: 'call_1', delta: 'b\n', turnId: 'old' }] } },
        b: {
          correlationId: 2,
          ok: true,
          value: { threadId: 'A', turnOpen: true, facts: [{ kind: 'toolCompleted', tool, outcome: { status: 'completed', text: 'a\nb\n', exitCode: 0 }, turnId: 'old' }] },
        },
      });
    });
  });

  it('keeps the agent message item apart from tool items, and forgets tools whose turn completed', () => {
    const open = restoreTurnState(rows);
    expect(open.item).to.deep.equal({ id: 'm1', text: '', completed: true });
    expect(open.tools.map((tool) => [tool.kind, tool.id, tool.output])).to.deep.equal([['commandExecution', 'call_1', 'a\n']]);
    const closed = restoreTurnState([...rows, row(6, 'item/completed', { item: { ...command, status: 'completed' } })]);
    expect(closed.tools).to.deep.equal([]);
    expect(restoreTurnState([...rows, row(6, 'turn/completed', { status: 'interrupted', providerCheckpointId: 'x' })]).tools).to.deep.equal([]);
  });
});

const zero = { totalTokens: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
