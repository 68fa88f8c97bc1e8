import { expect } from 'chai';
import { map } from 'rxjs';
import { emitEvents, UNKNOWN_CONTEXT_WINDOW } from '../../src/operators/emitEvents';
import type { ThreadFacts } from '../../src/operators/scanTurnState';
import type { TurnFact } from '../../src/operators/turnState';
import type { Step } from '../../src/protocol/pipelineItems';
import { ThreadEventDataSchemas, type ThreadEventType } from '../../src/protocol/threadEvents';
import { testScheduler } from '../helpers/marbles';

const factsStep = (facts: TurnFact[], threadId = 'thr_1'): Step<ThreadFacts> => ({ correlationId: 1, ok: true, value: { threadId, facts, turnOpen: true } });

describe('emitEvents()', () => {
  it('shapes facts as rows with the turn scope, providerThreadId and the spec payload', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const input = cold('a|', {
        a: factsStep([
          { kind: 'turnStarted', origin: 'client', turnId: 't1' },
          { kind: 'itemDelta', itemId: 'i1', delta: 'Hi', turnId: 't1' },
        ]),
      });
      const deps = { providerThreadIdFor: (threadId: string) => `pi-session-of-${threadId}` };
      expectObservable(input.pipe(emitEvents(deps))).toBe('a|', {
        a: {
          correlationId: 1,
          ok: true,
          value: {
            threadId: 'thr_1',
            turnOpen: true,
            events: [
              { threadId: 'thr_1', type: 'turn/started', turnId: 't1', scope: { kind: 'turn', turnId: 't1' }, data: { providerThreadId: 'pi-session-of-thr_1', origin: 'client' } },
              { threadId: 'thr_1', type: 'item/agentMessage/delta', turnId: 't1', scope: { kind: 'turn', turnId: 't1' }, data: { providerThreadId: 'pi-session-of-thr_1', itemId: 'i1', delta: 'Hi' } },
            ],
          },
        },
      });
    });
  });

  it('gives events outside a turn the thread scope and a null turn id', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const input = cold('a|', { a: factsStep([{ kind: 'unhandled', rawType: 'sdk/x', rawEvent: { y: 1 }, turnId: null }]) });
      const out = input.pipe(emitEvents(), map((step) => step.ok && step.value.events.map(({ turnId, scope, data }) => ({ turnId, scope, data }))));
      expectObservable(out).toBe('a|', {
        a: [{ turnId: null, scope: { kind: 'thread' }, data: { providerThreadId: 'thr_1', providerId: 'pi', rawType: 'sdk/x', rawEvent: { y: 1 } } }],
      });
    });
  });

  const windows: Array<{ name: string; window: number | undefined; estimated: boolean; fact: boolean; expected: number }> = [
    { name: 'a known window and reported usage', window: 200_000, fact: false, estimated: false, expected: 200_000 },
    { name: 'a known window but no usage reported', window: 200_000, fact: true, estimated: true, expected: 200_000 },
    { name: 'an unknown model (falls back to 0, estimated)', window: undefined, fact: false, estimated: true, expected: UNKNOWN_CONTEXT_WINDOW },
  ];
  for (const { name, window, fact, estimated, expected } of windows) {
    it(`reports the context window for ${name}`, () => {
      testScheduler().run(({ cold, expectObservable }) => {
        const input = cold('a|', { a: factsStep([{ kind: 'contextWindowUsage', usedTokens: 1234, estimated: fact, turnId: 't1' }]) });
        const out = input.pipe(emitEvents({ contextWindowFor: () => window }), map((step) => step.ok && step.value.events[0]!.data['contextWindowUsage']));
        expectObservable(out).toBe('a|', { a: { usedTokens: 1234, modelContextWindow: expected, estimated } });
      });
    });
  }

  it('writes data that matches the documented schema for every event type', () => {
    const counts = { totalTokens: 1, inputTokens: 1, cachedInputTokens: 0, outputTokens: 0 };
    const facts: TurnFact[] = [
      { kind: 'turnStarted', origin: 'agent', turnId: 't' },
      { kind: 'itemStarted', itemId: 'i', turnId: 't' },
      { kind: 'itemDelta', itemId: 'i', delta: 'x', turnId: 't' },
      { kind: 'itemCompleted', itemId: 'i', text: 'x', turnId: 't' },
      { kind: 'tokenUsage', last: counts, total: counts, turnId: 't' },
      { kind: 'turnCompleted', status: 'failed', error: { message: 'e' }, turnId: 't' },
      { kind: 'contextWindowUsage', usedTokens: 1, estimated: false, turnId: 't' },
      { kind: 'unhandled', rawType: 'sdk/x', rawEvent: {}, turnId: null },
      { kind: 'providerError', message: 'm', willRetry: true, turnId: null },
    ];
    let checked = 0;
    testScheduler().run(({ cold }) => {
      cold('a|', { a: factsStep(facts) }).pipe(emitEvents()).subscribe((step) => {
        if (!step.ok) throw new Error('unexpected rejection');
        for (const event of step.value.events) {
          ThreadEventDataSchemas[event.type as ThreadEventType].parse(event.data);
          checked += 1;
        }
      });
    });
    expect(checked).to.equal(Object.keys(ThreadEventDataSchemas).length);
  });
});
