import { expect } from 'chai';
import { scanTurnState } from '../../src/operators/scanTurnState';
import { restoreTurnState } from '../../src/turns/restoreTurnState';
import { INITIAL_TURN_STATE, type ThreadTurnState } from '../../src/turns/turnState';
import type { Step } from '../../src/operators/stageValues';
import type { StoredThreadEvent } from '../../src/protocol/threadEvents';
import { RUN_LOST_MESSAGE, type RuleInput } from '../../src/turns/ruleInput';
import { sequentialIds, testScheduler } from '../helpers/pipeline/marbles';
import * as b from '../helpers/pipeline/sdk';

const sdkStep = (correlationId: number, threadId: string, event: { type: string }): Step<RuleInput> => ({
  correlationId,
  ok: true,
  value: { kind: 'sdk', threadId, event, envelope: b.sdk(threadId, event) },
});

/** This process's epoch in these tests; rows of its own turns carry it in `turn/started.processEpoch`. */
const EPOCH = 'epoch-now';

/** The state read back from the store, handed over as an input, as the ingest does after a store read. */
const restoredStep = (correlationId: number, threadId: string, state: ThreadTurnState): Step<RuleInput> => ({
  correlationId,
  ok: true,
  value: { kind: 'restored', threadId, state, processEpoch: EPOCH },
});

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
        a: {
          correlationId: 1,
          ok: true,
          value: { threadId: 'A', turnOpen: true, facts: [{ kind: 'turnStarted', origin: 'agent', turnId: 't1' }] },
        },
        b: {
          correlationId: 2,
          ok: true,
          value: { threadId: 'B', turnOpen: true, facts: [{ kind: 'turnStarted', origin: 'agent', turnId: 't2' }] },
        },
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
      const rejected: Step<RuleInput> = { correlationId: 9, ok: false, error: { code: -32600, message: 'Invalid Request' } };
      expectObservable(cold('x|', { x: rejected }).pipe(scanTurnState({ newId: sequentialIds('t') }))).toBe('x|', { x: rejected });
    });
  });

  it('restarts a thread from a state handed over mid-stream as an input (a failed append lost rows it had counted)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const deps = { newId: sequentialIds('t') };
      // After a, the turn it opened was never stored: the store's state (no turn) is handed over (r) before c.
      const input = cold('a-b-r-c|', {
        a: sdkStep(1, 'A', b.agentStart()),
        b: sdkStep(2, 'A', b.agentStart()),
        r: restoredStep(4, 'A', INITIAL_TURN_STATE),
        c: sdkStep(3, 'A', b.agentStart()),
      });
      expectObservable(input.pipe(scanTurnState(deps))).toBe('a-b-r-c|', {
        a: {
          correlationId: 1,
          ok: true,
          value: { threadId: 'A', turnOpen: true, facts: [{ kind: 'turnStarted', origin: 'agent', turnId: 't1' }] },
        },
        b: { correlationId: 2, ok: true, value: { threadId: 'A', turnOpen: true, facts: [] } },
        r: { correlationId: 4, ok: true, value: { threadId: 'A', turnOpen: false, facts: [] } },
        c: {
          correlationId: 3,
          ok: true,
          value: { threadId: 'A', turnOpen: true, facts: [{ kind: 'turnStarted', origin: 'agent', turnId: 't2' }] },
        },
      });
    });
  });

  it('continues a restored open turn of this process with its id instead of opening a new one', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const restored = restoreTurnState([
        {
          id: 'r1',
          threadId: 'A',
          seq: 1,
          type: 'turn/started',
          turnId: 'old',
          scope: { kind: 'turn', turnId: 'old' },
          data: { providerThreadId: 'A', origin: 'agent', processEpoch: EPOCH },
          createdAt: '',
        },
      ]);
      const deps = { newId: sequentialIds('t') };
      const input = cold('r-a-b|', {
        r: restoredStep(9, 'A', restored),
        a: sdkStep(1, 'A', b.agentStart()),
        b: sdkStep(2, 'A', b.agentEnd([])),
      });
      expectObservable(input.pipe(scanTurnState(deps))).toBe('r-a-b|', {
        r: { correlationId: 9, ok: true, value: { threadId: 'A', turnOpen: true, facts: [] } },
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
    ({
      id: `r${seq}`,
      threadId: 'A',
      seq,
      type,
      turnId: 'old',
      scope: { kind: 'turn' as const, turnId: 'old' },
      data: { providerThreadId: 'A', ...data },
      createdAt: '',
    }) as StoredThreadEvent;
  const ownRows = (rows: StoredThreadEvent[]) =>
    rows.map((r) => (r.type === 'turn/started' ? ({ ...r, data: { ...r.data, processEpoch: EPOCH } } as StoredThreadEvent) : r));
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
      const deps = { newId: sequentialIds('t') };
      const input = cold('ra-b|', {
        r: restoredStep(9, 'A', restoreTurnState(ownRows(rows))),
        a: sdkStep(1, 'A', b.toolOutput('call_1', 'a\nb\n')),
        b: sdkStep(2, 'A', b.toolEnd('call_1', 'bash', 'a\nb\n')),
      });
      const tool = { kind: 'commandExecution', command: 'make', id: 'call_1', output: 'a\nb\n', outputBytes: 4 };
      expectObservable(input.pipe(scanTurnState(deps))).toBe('ra-b|', {
        r: { correlationId: 9, ok: true, value: { threadId: 'A', turnOpen: true, facts: [] } },
        a: {
          correlationId: 1,
          ok: true,
          value: { threadId: 'A', turnOpen: true, facts: [{ kind: 'toolOutputDelta', itemId: 'call_1', delta: 'b\n', turnId: 'old' }] },
        },
        b: {
          correlationId: 2,
          ok: true,
          value: {
            threadId: 'A',
            turnOpen: true,
            facts: [{ kind: 'toolCompleted', tool, outcome: { status: 'completed', text: 'a\nb\n', exitCode: 0 }, turnId: 'old' }],
          },
        },
      });
    });
  });

  it('closes a restored turn of an earlier process before anything else: running tools failed, then interrupted with the reason', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const input = cold('r-a|', {
        r: restoredStep(9, 'A', restoreTurnState(rows)),
        a: sdkStep(1, 'A', b.toolEnd('call_1', 'bash', 'a\nb\n')),
      });
      const tool = { kind: 'commandExecution', command: 'make', id: 'call_1', output: 'a\n', outputBytes: 2 };
      const lateEnd = b.sdk('A', b.toolEnd('call_1', 'bash', 'a\nb\n'));
      expectObservable(input.pipe(scanTurnState({ newId: sequentialIds('t') }))).toBe('r-a|', {
        r: {
          correlationId: 9,
          ok: true,
          value: {
            threadId: 'A',
            turnOpen: false,
            facts: [
              { kind: 'toolCompleted', tool, outcome: { status: 'failed', text: 'a\n' }, turnId: 'old' },
              { kind: 'turnCompleted', status: 'interrupted', error: { message: RUN_LOST_MESSAGE }, turnId: 'old' },
            ],
          },
        },
        // The dead run's late event is kept, outside the closed turn.
        a: {
          correlationId: 1,
          ok: true,
          value: {
            threadId: 'A',
            turnOpen: false,
            facts: [{ kind: 'unhandled', rawType: 'sdk/tool_execution_end', rawEvent: lateEnd, turnId: null }],
          },
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
    expect(restoreTurnState([...rows, row(6, 'turn/completed', { status: 'interrupted', providerCheckpointId: 'x' })]).tools).to.deep.equal(
      [],
    );
  });

  it('reads a userMessage item as said and done: it is not the agent message a later answer would continue', () => {
    const said = { type: 'userMessage', id: 'u1', content: [{ type: 'text', text: 'hi' }] };
    const restored = restoreTurnState([
      row(1, 'turn/started', { origin: 'client' }),
      row(2, 'item/started', { item: said }),
      row(3, 'item/completed', { item: said }),
    ]);
    expect(restored.item).to.equal(null);
    expect(restored.turn?.id).to.equal('old');
  });
});

const zero = { totalTokens: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
