import { expect } from 'chai';
import { map, pipe, tap } from 'rxjs';
import { threadEvents } from '../../pipelines/thread-events';
import { redactSecrets } from '../../pipelines/stages/redactSecrets';
import { emitEvents } from '../../src/operators/emitEvents';
import { persistWithSeq } from '../../src/operators/persistWithSeq';
import { scanTurnState } from '../../src/operators/scanTurnState';
import { validate } from '../../src/operators/validate';
import { createMemoryEventStore } from '../../src/store/memoryEventStore';
import { sequentialIds, testScheduler } from '../helpers/pipeline/marbles';
import * as b from '../helpers/pipeline/sdk';
import { rowsOfThread, runPipeline, typesOf } from '../helpers/pipeline/run';

const marbleFrames = (frames: unknown[]) =>
  Object.fromEntries(frames.map((frame, i) => [String.fromCharCode(97 + i), { correlationId: i + 1, frame }]));

describe('thread-events pipeline', () => {
  it('emits the spec order for an agent-started turn (custom message with string content)', () => {
    const frames = b.agentStartedTurn('thr_1', 'The nightly build failed', ['The build', ' failed', '.']);
    testScheduler().run(({ cold, expectObservable }) => {
      const out = cold('abcdefghijk|', marbleFrames(frames)).pipe(
        threadEvents({ store: createMemoryEventStore(), newId: sequentialIds('t') }),
        map((step) => (step.ok ? step.value.rows.map((row) => `${row.seq} ${row.type}`) : step.error.message)),
      );
      expectObservable(out).toBe('abcdefghijk|', {
        a: ['1 turn/started'],
        b: [],
        c: ['2 provider/unhandled'],
        d: ['3 provider/unhandled'],
        e: [],
        f: ['4 item/started', '5 item/agentMessage/delta'],
        g: ['6 item/agentMessage/delta'],
        h: ['7 item/agentMessage/delta'],
        i: ['8 item/completed'],
        j: [],
        k: ['9 thread/tokenUsage/updated', '10 turn/completed', '11 thread/contextWindowUsage/updated'],
      });
    });
  });

  it('emits a bash tool call as a commandExecution item between the assistant messages, every row in the turn (E7)', () => {
    const T = 'thr_1';
    const frames = [
      b.promptStarted(T),
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.toolStart('call_1', 'bash', { command: 'ls' })),
      b.sdk(T, b.toolOutput('call_1', '')),
      b.sdk(T, b.toolOutput('call_1', 'a.txt\n')),
      b.sdk(T, b.toolEnd('call_1', 'bash', 'a.txt\n')),
      b.sdk(T, b.messageStart({ role: 'toolResult', content: [] })),
      ...b.streamedReply(T, ['Done.']).frames,
      b.sdk(T, b.agentEnd([b.assistantMessage('Done.')])),
    ];
    testScheduler().run(({ cold, expectObservable }) => {
      const out = cold('abcdefghijk|', marbleFrames(frames)).pipe(
        threadEvents({ store: createMemoryEventStore(), newId: sequentialIds('t') }),
        map((step) => (step.ok ? step.value.rows.map((row) => `${row.seq} ${row.type} ${row.turnId}`) : step.error.message)),
      );
      expectObservable(out).toBe('abcdefghijk|', {
        a: [],
        b: ['1 turn/started t1'],
        c: ['2 item/started t1'],
        d: [],
        e: ['3 item/commandExecution/outputDelta t1'],
        f: ['4 item/completed t1'],
        g: [],
        h: [],
        i: ['5 item/started t1', '6 item/agentMessage/delta t1'],
        j: ['7 item/completed t1'],
        k: ['8 thread/tokenUsage/updated t1', '9 turn/completed t1', '10 thread/contextWindowUsage/updated t1'],
      });
    });
  });

  it('providerCheckpointId is the checkpoint the agent reports while the frame that closes the turn passes', () => {
    // Stands in for pi's session leaf, which moves as entries are appended: one new entry per frame here.
    let leaf = 'none';
    const frames = b.clientTurn('A', 'hi', ['ok']);
    const agentEnd = frames.length - 2;
    testScheduler().run(({ cold, expectObservable }) => {
      const out = cold('abcdefghij|', marbleFrames(frames)).pipe(
        tap(({ correlationId }) => (leaf = `entry-${correlationId}`)),
        threadEvents({ store: createMemoryEventStore(), newId: sequentialIds('t'), checkpointIdFor: () => leaf }),
        map(
          (step) =>
            step.ok && step.value.rows.filter((row) => row.type === 'turn/completed').map((row) => row.data['providerCheckpointId']),
        ),
      );
      const values = Object.fromEntries(
        frames.map((_, i) => [String.fromCharCode(97 + i), i === agentEnd ? [`entry-${agentEnd + 1}`] : []]),
      );
      expectObservable(out).toBe('abcdefghij|', values);
    });
  });

  it('answers every frame exactly once, in order, with its own rows or its JSON-RPC error', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const out = cold(
        'a-b-c-d|',
        marbleFrames([b.sdk('A', b.agentStart()), '{oops', b.sdk('B', b.agentStart()), { jsonrpc: '2.0', method: 'x/y' }]),
      ).pipe(
        threadEvents({ store: createMemoryEventStore(), newId: sequentialIds('t') }),
        map((step) =>
          step.ok
            ? `${step.correlationId}: ${step.value.threadId} ${typesOf(step.value.rows)}`
            : `${step.correlationId}: ${step.error.code}`,
        ),
      );
      expectObservable(out).toBe('a-b-c-d|', { a: '1: A turn/started', b: '2: -32700', c: '3: B turn/started', d: '4: -32601' });
    });
  });

  it('E7: interleaved threads each get their own turn ids and gapless seqs', async () => {
    const a = b.clientTurn('A', 'one', ['x', 'y']);
    const c = b.agentStartedTurn('C', 'two', ['z']);
    const interleaved = a.flatMap((frame, i) => [frame, ...(c[i] ? [c[i]] : [])]).concat(c.slice(a.length));
    const { rows } = await runPipeline([...interleaved, ...b.clientTurn('A', 'again', ['w'])]);
    for (const threadId of ['A', 'C']) {
      const own = rowsOfThread(rows, threadId);
      expect(own.map((row) => row.seq)).to.deep.equal(own.map((_, i) => i + 1));
    }
    const turnsOfA = rowsOfThread(rows, 'A').map((row) => row.turnId);
    expect(new Set(turnsOfA).size).to.equal(2);
    expect(turnsOfA.every((turnId) => turnId !== null)).to.equal(true);
    expect(new Set(rowsOfThread(rows, 'C').map((row) => row.turnId)).size).to.equal(1);
  });

  it('completes a turn exactly once and leaves the thread idle, whatever order agent_end and prompt/settled arrive in', async () => {
    const turn = b.clientTurn('A', 'hi', ['ok']);
    const settle = turn.at(-1)!;
    const agentEndIndex = turn.length - 2;
    for (let at = 1; at <= agentEndIndex + 1; at += 1) {
      const frames = [...turn.slice(0, -1)];
      frames.splice(at, 0, settle);
      const { steps, rows } = await runPipeline(frames);
      expect(
        typesOf(rows).filter((type) => type === 'turn/completed'),
        `settle at ${at}`,
      ).to.have.lengthOf(1);
      expect(
        rows.find((row) => row.type === 'item/completed' && row.data['item'].type === 'agentMessage')?.data['item'],
        `settle at ${at}`,
      ).to.deep.include({ text: 'ok' });
      const last = steps.at(-1)!;
      expect(last.ok && last.value.turnOpen, `settle at ${at}`).to.equal(false);
    }
  });

  it('a stage inserted between emitEvents and persistWithSeq changes what is stored (redactSecrets)', () => {
    const secret = 'sk-abcdefghijklmnopqrstuvwxyz123456';
    const frames = [b.sdk('A', b.agentStart()), b.sdk('A', b.textDelta(`key ${secret}`))];
    testScheduler().run(({ cold, expectObservable }) => {
      const store = createMemoryEventStore();
      const withRedaction = pipe(
        validate(),
        scanTurnState({ newId: sequentialIds('t') }),
        emitEvents(),
        redactSecrets(),
        persistWithSeq(store),
      );
      const out = cold('ab|', marbleFrames(frames)).pipe(
        withRedaction,
        map((step) => step.ok && step.value.rows.map((row) => row.data['delta'] ?? row.type)),
      );
      expectObservable(out).toBe('ab|', { a: ['turn/started'], b: ['item/started', 'key [REDACTED]'] });
    });
  });
});
