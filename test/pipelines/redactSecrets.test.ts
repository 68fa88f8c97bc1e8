import { map } from 'rxjs';
import { REDACTED, redactSecrets } from '../../pipelines/stages/redactSecrets';
import type { ThreadEvents } from '../../src/operators/stageValues';
import type { Step } from '../../src/operators/stageValues';
import type { NewThreadEvent } from '../../src/store/eventStore';
import { testScheduler } from '../helpers/pipeline/marbles';

const row = (type: string, data: Record<string, unknown>): NewThreadEvent =>
  ({ threadId: 'A', type, turnId: 't', scope: { kind: 'turn', turnId: 't' }, data: { providerThreadId: 'A', ...data } }) as NewThreadEvent;
const step = (...events: NewThreadEvent[]): Step<ThreadEvents> => ({
  correlationId: 1,
  ok: true,
  value: { threadId: 'A', events, turnOpen: true },
});

describe('redactSecrets() stage', () => {
  it('masks keys in deltas and completed items and leaves other events alone', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const input = cold('a-b-c|', {
        a: step(row('item/agentMessage/delta', { itemId: 'i', delta: 'use sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA now' })),
        b: step(
          row('item/completed', {
            item: { type: 'agentMessage', id: 'i', text: 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789 and AKIAABCDEFGHIJKLMNOP' },
          }),
        ),
        c: step(row('provider/unhandled', { rawType: 'sdk/x', rawEvent: { delta: 'sk-abcdefghijklmnopqrstuvwxyz' } })),
      });
      const out = input.pipe(
        redactSecrets(),
        map((s) => s.ok && s.value.events[0]!.data),
      );
      expectObservable(out).toBe('a-b-c|', {
        a: { providerThreadId: 'A', itemId: 'i', delta: `use ${REDACTED} now` },
        b: { providerThreadId: 'A', item: { type: 'agentMessage', id: 'i', text: `token ${REDACTED} and ${REDACTED}` } },
        c: { providerThreadId: 'A', rawType: 'sdk/x', rawEvent: { delta: 'sk-abcdefghijklmnopqrstuvwxyz' } },
      });
    });
  });

  it('masks keys a command prints, in its output deltas and its completed item', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const command = { type: 'commandExecution', id: 'call_1', command: 'cat .env', status: 'completed', exitCode: 0 };
      const input = cold('a-b|', {
        a: step(row('item/commandExecution/outputDelta', { itemId: 'call_1', delta: 'OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwxyz\n' })),
        b: step(row('item/completed', { item: { ...command, aggregatedOutput: 'OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwxyz\n' } })),
      });
      const out = input.pipe(
        redactSecrets(),
        map((s) => s.ok && s.value.events[0]!.data),
      );
      expectObservable(out).toBe('a-b|', {
        a: { providerThreadId: 'A', itemId: 'call_1', delta: `OPENAI_API_KEY=${REDACTED}\n` },
        b: { providerThreadId: 'A', item: { ...command, aggregatedOutput: `OPENAI_API_KEY=${REDACTED}\n` } },
      });
    });
  });
});
