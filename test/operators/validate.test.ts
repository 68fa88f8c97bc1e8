import { expect } from 'chai';
import fc from 'fast-check';
import { map } from 'rxjs';
import { plainFrameOf } from '../../src/protocol/plainFrame';
import { parseFrame, parseFrameWithSchemas } from '../../src/protocol/parseFrame';
import { validate } from '../../src/operators/validate';
import { JSON_RPC_ERROR } from '../../src/protocol/jsonRpc';
import { approvalRequestedFrame, approvalResolvedFrame } from '../../src/protocol/approvals';
import { testScheduler } from '../helpers/pipeline/marbles';
import * as b from '../helpers/pipeline/sdk';

const T = 'thr_1';
const subject = { kind: 'execute', title: 'make', command: 'make', paths: [] };

describe('validate()', () => {
  it('turns frames into turn inputs and bad frames into error values without ending the stream', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const frames = cold('a-b-c-d|', {
        a: { correlationId: 1, frame: b.sdk(T, b.agentStart()) },
        b: { correlationId: 2, frame: '{not json' },
        c: { correlationId: 3, frame: JSON.stringify(b.promptSettled(T, 'boom')) },
        d: { correlationId: 4, frame: b.stop(T) },
      });
      const out = frames.pipe(
        validate(),
        map((step) => (step.ok ? step : { correlationId: step.correlationId, code: step.error.code })),
      );
      expectObservable(out).toBe('a-b-c-d|', {
        a: {
          correlationId: 1,
          ok: true,
          value: { kind: 'sdk', threadId: T, event: { type: 'agent_start' }, envelope: b.sdk(T, b.agentStart()) },
        },
        b: { correlationId: 2, code: JSON_RPC_ERROR.parseError },
        c: { correlationId: 3, ok: true, value: { kind: 'promptSettled', threadId: T, providerId: 'pi', error: 'boom' } },
        d: { correlationId: 4, ok: true, value: { kind: 'stop', threadId: T } },
      });
    });
  });

  const rejections: Array<{ name: string; frame: unknown; code: number }> = [
    { name: 'a string that is not JSON', frame: '{"jsonrpc":', code: JSON_RPC_ERROR.parseError },
    { name: 'a JSON value that is not an object', frame: 42, code: JSON_RPC_ERROR.invalidRequest },
    { name: 'a wrong jsonrpc version', frame: { jsonrpc: '1.0', method: 'sdk/message', params: {} }, code: JSON_RPC_ERROR.invalidRequest },
    {
      name: 'an unknown envelope key (strict envelope)',
      frame: { ...b.sdk(T, b.agentStart()), parms: {} },
      code: JSON_RPC_ERROR.invalidRequest,
    },
    {
      name: 'an unknown method',
      frame: { jsonrpc: '2.0', method: 'sdk/other', params: { threadId: T } },
      code: JSON_RPC_ERROR.methodNotFound,
    },
    {
      name: 'sdk/message without threadId',
      frame: { jsonrpc: '2.0', method: 'sdk/message', params: { message: { type: 'agent_start' } } },
      code: JSON_RPC_ERROR.invalidParams,
    },
    {
      name: 'sdk/message whose message has no type',
      frame: { jsonrpc: '2.0', method: 'sdk/message', params: { threadId: T, message: {} } },
      code: JSON_RPC_ERROR.invalidParams,
    },
    {
      name: 'prompt/settled with an empty threadId',
      frame: { jsonrpc: '2.0', method: 'pi/prompt/settled', params: { threadId: '' } },
      code: JSON_RPC_ERROR.invalidParams,
    },
    {
      name: 'approval/requested without options',
      frame: { jsonrpc: '2.0', method: 'approval/requested', params: { threadId: T, approvalId: 'ap1', subject, permissionMode: 'ask' } },
      code: JSON_RPC_ERROR.invalidParams,
    },
    {
      name: 'approval/resolved by nobody the contract names',
      frame: { jsonrpc: '2.0', method: 'approval/resolved', params: { threadId: T, approvalId: 'ap1', decidedBy: 'the-cat' } },
      code: JSON_RPC_ERROR.invalidParams,
    },
    {
      name: 'approval/resolved with an empty approval id',
      frame: { jsonrpc: '2.0', method: 'approval/resolved', params: { threadId: T, approvalId: '', decidedBy: 'user' } },
      code: JSON_RPC_ERROR.invalidParams,
    },
  ];
  for (const { name, frame, code } of rejections) {
    it(`rejects ${name} with JSON-RPC ${code}`, () => {
      testScheduler().run(({ cold, expectObservable }) => {
        const out = cold('a|', { a: { correlationId: 7, frame } }).pipe(
          validate(),
          map((step) => (step.ok ? 'accepted' : { correlationId: step.correlationId, code: step.error.code })),
        );
        expectObservable(out).toBe('a|', { a: { correlationId: 7, code } });
      });
    });
  }

  it('keeps unknown fields of the SDK payload unchanged (lenient inner payload)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const event = { type: 'agent_end', messages: [{ role: 'custom', content: 'x', futureField: { deep: 1 } }], extra: 'kept' };
      const out = cold('a|', { a: { correlationId: 1, frame: b.sdk(T, event) } }).pipe(validate());
      expectObservable(out).toBe('a|', {
        a: { correlationId: 1, ok: true, value: { kind: 'sdk', threadId: T, event, envelope: b.sdk(T, event) } },
      });
    });
  });

  it('accepts any provider id in prompt signals and passes it on', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const out = cold('a|', { a: { correlationId: 1, frame: b.promptStarted(T, 'claude') } }).pipe(validate());
      expectObservable(out).toBe('a|', {
        a: { correlationId: 1, ok: true, value: { kind: 'promptStarted', threadId: T, providerId: 'claude' } },
      });
    });
  });

  it('reads approval frames as approval inputs with their params', () => {
    const asked = approvalRequestedFrame({ threadId: T, approvalId: 'ap1', subject, options: [], permissionMode: 'ask' });
    const answered = approvalResolvedFrame({ threadId: T, approvalId: 'ap1', decidedBy: 'cancelled', reason: 'stopped' });
    testScheduler().run(({ cold, expectObservable }) => {
      const out = cold('ab|', { a: { correlationId: 1, frame: asked }, b: { correlationId: 2, frame: JSON.stringify(answered) } }).pipe(
        validate(),
      );
      expectObservable(out).toBe('ab|', {
        a: { correlationId: 1, ok: true, value: { kind: 'approvalRequested', threadId: T, request: asked.params } },
        b: { correlationId: 2, ok: true, value: { kind: 'approvalResolved', threadId: T, resolution: answered.params } },
      });
    });
  });

  it('property: frames decided without zod get exactly the answer the zod schemas give', () => {
    // Mostly valid fields, each now and then replaced by a near miss, so many frames pass or just miss the quick check.
    const usually = <V>(valid: fc.Arbitrary<V>, ...nearMisses: Array<fc.Arbitrary<unknown>>) =>
      fc.oneof({ weight: 6, arbitrary: valid as fc.Arbitrary<unknown> }, ...nearMisses.map((arbitrary) => ({ weight: 1, arbitrary })));
    const absent = fc.constant(undefined);
    const odd = fc.oneof(fc.jsonValue(), absent, fc.constantFrom(Number.NaN, Infinity, -0, null, [], ''));
    const message = usually(
      fc.record(
        { type: usually(fc.constantFrom('agent_start', 'message_update', 'agent_end'), fc.string(), odd), more: odd },
        { requiredKeys: ['type'] },
      ),
      fc.dictionary(fc.string(), fc.jsonValue()),
      odd,
    );
    const params = usually(
      fc.record(
        { threadId: usually(fc.constantFrom(T, 'thr_2'), fc.string(), odd), message, error: odd, extra: odd },
        { requiredKeys: ['threadId', 'message'] },
      ),
      odd,
    );
    const envelope = fc.record(
      {
        jsonrpc: usually(fc.constant('2.0'), fc.constantFrom('1.0', '2.0 ', 2), odd),
        method: usually(
          fc.constantFrom('sdk/message', 'thread/stop', 'pi/prompt/settled', 'claude/prompt/started'),
          fc.constantFrom('pi/prompt/nope', ''),
          fc.string(),
          odd,
        ),
        params,
        id: usually(
          fc.oneof(fc.string(), fc.integer(), fc.constant(null), absent),
          fc.double(),
          fc.constantFrom(Number.NaN, Infinity, true),
        ),
        parms: odd,
        ['__proto__']: odd,
      },
      { requiredKeys: ['jsonrpc', 'method', 'params'] },
    );
    const frame = fc.oneof(
      { weight: 8, arbitrary: envelope },
      envelope.map((value) => JSON.stringify(value) ?? ''),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(frame, (value) => {
        expect(parseFrame(value)).to.deep.equal(parseFrameWithSchemas(value));
      }),
      { numRuns: 3_000 },
    );
    // The frames pi streams do take the quick check (else the property above would hold vacuously).
    for (const value of [b.sdk(T, b.textDelta('x')), b.promptStarted(T), b.promptSettled(T, 'boom'), b.stop(T)])
      expect(plainFrameOf(value), JSON.stringify(value)).to.not.equal(undefined);
  });
});
