import { scanTurnState } from '../../src/operators/scanTurnState';
import { restoreTurnState } from '../../src/operators/restoreTurnState';
import type { Step } from '../../src/protocol/pipelineItems';
import type { TurnInput } from '../../src/protocol/turnInput';
import { sequentialIds, testScheduler } from '../helpers/marbles';
import * as b from '../helpers/pipelineSdk';

const sdkStep = (correlationId: number, threadId: string, event: { type: string }): Step<TurnInput> => ({
  correlationId,
  ok: true,
  value: { kind: 'sdk', threadId, event, envelope: b.sdk(threadId, event) },
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

  it('continues a restored open turn with its id instead of opening a new one', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const restored = restoreTurnState([
        { id: 'r1', threadId: 'A', seq: 1, type: 'turn/started', turnId: 'old', scope: { kind: 'turn', turnId: 'old' }, data: { providerThreadId: 'A', origin: 'agent' }, createdAt: '' },
      ]);
      const deps = { newId: sequentialIds('t'), restoredStateFor: (threadId: string) => (threadId === 'A' ? restored : undefined) };
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

const zero = { totalTokens: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
