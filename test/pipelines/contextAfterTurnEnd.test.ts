import { expect } from 'chai';
import { from, lastValueFrom, map, toArray } from 'rxjs';
import { threadEvents } from '../../pipelines/thread-events';
import { createMemoryEventStore } from '../../src/store/memoryEventStore';
import { restoreTurnState } from '../../src/turns/restoreTurnState';
import { sequentialIds, testScheduler } from '../helpers/pipeline/marbles';
import * as b from '../helpers/pipeline/sdk';

const T = 'thr_1';
const WINDOW = 128_000;
const marbleFrames = (frames: unknown[]) =>
  Object.fromEntries(frames.map((frame, i) => [String.fromCharCode(97 + i), { correlationId: i + 1, frame }]));

/** A run of one prompt: its user message and its last assistant message, as pi's `agent_end` lists them. */
const run = (prompt: string, reply: ReturnType<typeof b.assistantMessage>, stopped = false) => [
  b.promptStarted(T, 'pi', prompt),
  b.sdk(T, b.agentStart()),
  ...(stopped ? [b.stop(T)] : []),
  b.sdk(T, b.agentEnd([b.userMessage(prompt), reply])),
  b.promptSettled(T),
];

/** Every row the frames produce, through the real pipeline, with a known context window (so `~` means estimated by us). */
async function runPipeline(frames: unknown[]) {
  const steps = await lastValueFrom(
    from(frames.map((frame, i) => ({ correlationId: i + 1, frame }))).pipe(
      threadEvents({ store: createMemoryEventStore(), newId: sequentialIds('id'), contextWindowFor: () => WINDOW }),
      toArray(),
    ),
  );
  return { rows: steps.flatMap((step) => (step.ok ? step.value.rows : [])) };
}

/** What each step stored of the context window, `-` when it stored no such row. */
const contextOf = (rows: Array<{ type: string; data: Record<string, any> }>) =>
  rows
    .filter((row) => row.type === 'thread/contextWindowUsage/updated')
    .map(({ data }) => `${data['contextWindowUsage'].usedTokens}${data['contextWindowUsage'].estimated ? '~' : ''}`)
    .join() || '-';

describe('the context window after any turn end, interrupted and failed included (issue 29)', () => {
  it('E2 a stopped run whose model reported no usage keeps the fill it had plus pi’s estimate of the run, marked estimated', () => {
    // "Think slowly" + "Thinking hard": 25 characters, 7 tokens by pi's chars / 4.
    const frames = [
      ...run('hi', b.assistantMessage('Hello', { usage: b.usage(120, 8) })),
      ...run('Think slowly', b.assistantMessage('Thinking hard', { stopReason: 'aborted' }), true),
    ];
    testScheduler().run(({ cold, expectObservable }) => {
      const out = cold('abcdefghi|', marbleFrames(frames)).pipe(
        threadEvents({ store: createMemoryEventStore(), newId: sequentialIds('t'), contextWindowFor: () => WINDOW }),
        map((step) => (step.ok ? contextOf(step.value.rows) : step.error.message)),
      );
      expectObservable(out).toBe('abcdefghi|', { a: '-', b: '-', c: '128', d: '-', e: '-', f: '-', g: '-', h: '135~', i: '-' });
    });
  });

  it('E2 a run that failed before the model answered (stopReason error, zero usage) keeps the fill too', async () => {
    const { rows } = await runPipeline([
      ...run('hi', b.assistantMessage('Hello', { usage: b.usage(1000, 250) })),
      ...run('again', b.assistantMessage('', { stopReason: 'error', errorMessage: 'overloaded' })),
    ]);
    expect(contextOf(rows.slice(0, 6))).to.equal('1250');
    expect(contextOf(rows.slice(6))).to.equal('1252~'); // "again": 5 characters, 2 tokens
    expect(rows.find((row) => row.type === 'turn/completed' && row.data['status'] === 'failed')).to.not.equal(undefined);
  });

  it('a turn closed without its run’s end (a stop with no run, a refused prompt) stores no context row: the last one stands', async () => {
    const { rows } = await runPipeline([
      ...run('hi', b.assistantMessage('Hello', { usage: b.usage(120, 8) })),
      b.promptStarted(T, 'pi', 'no key'),
      b.promptSettled(T, { message: 'No API key' }),
    ]);
    expect(contextOf(rows)).to.equal('128');
    expect(rows.at(-1)!.type).to.equal('turn/completed');
  });

  it('a thread read back from its rows (restart) keeps counting from its last context row', async () => {
    const { rows } = await runPipeline(run('hi', b.assistantMessage('Hello', { usage: b.usage(120, 8) })));
    expect(restoreTurnState(rows).contextTokens).to.equal(128);
  });
});
