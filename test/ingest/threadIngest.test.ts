import { expect } from 'chai';
import { from, lastValueFrom } from 'rxjs';
import { createThreadIngest, type IngestOutcome } from '../../src/ingest/threadIngest';
import { JSON_RPC_ERROR } from '../../src/protocol/jsonRpc';
import type { EventStore, StoredThreadEvent } from '../../src/store/eventStore';
import { createMemoryEventStore } from '../../src/store/memoryEventStore';
import { openNedbEventStore } from '../../src/store/nedb/nedbEventStore';
import { RUN_LOST_MESSAGE } from '../../src/turns/ruleInput';
import { threadViolations } from '../helpers/pipeline/invariants';
import * as b from '../helpers/pipeline/sdk';
import { makeTempDir } from '../helpers/temp/dir';

const rowsOf = (outcome: IngestOutcome): StoredThreadEvent[] => {
  if (!outcome.ok) throw new Error(`rejected: ${JSON.stringify(outcome.error)}`);
  return outcome.rows;
};
const codeOf = (outcome: IngestOutcome) => (outcome.ok ? 'ok' : outcome.error.code);

describe('createThreadIngest', () => {
  it('resolves each call with exactly the rows its own frame produced, with many threads in flight', async () => {
    const ingest = createThreadIngest({ store: createMemoryEventStore() });
    const frames = [...b.clientTurn('A', 'one', ['a1', 'a2']), ...b.agentStartedTurn('B', 'two', ['b1'])];
    const outcomes = await Promise.all(frames.map((frame) => ingest.ingest(frame)));
    outcomes.forEach((outcome, i) => {
      const threadId = (frames[i] as { params: { threadId: string } }).params.threadId;
      for (const row of rowsOf(outcome)) expect(row.threadId).to.equal(threadId);
    });
    const deltaOutcome = outcomes[frames.findIndex((frame) => JSON.stringify(frame).includes('"delta":"a2"'))]!;
    expect(rowsOf(deltaOutcome).map((row) => [row.type, row.data['delta']])).to.deep.equal([['item/agentMessage/delta', 'a2']]);
    for (const threadId of ['A', 'B']) {
      const rows = outcomes.flatMap(rowsOf).filter((row) => row.threadId === threadId);
      expect(threadViolations(rows)).to.deep.equal([]);
    }
    await ingest.close();
  });

  it('answers bad frames with JSON-RPC error values and keeps serving later frames', async () => {
    const ingest = createThreadIngest({ store: createMemoryEventStore() });
    const outcomes = await Promise.all([
      ingest.ingest('{"jsonrpc":"2.0",'),
      ingest.ingest([1, 2]),
      ingest.ingest({ jsonrpc: '2.0', method: 'sdk/unknown', params: { threadId: 'A' } }),
      ingest.ingest({ jsonrpc: '2.0', method: 'sdk/message', params: { threadId: 'A' } }),
      ingest.ingest(JSON.stringify(b.sdk('A', b.agentStart()))),
    ]);
    expect(outcomes.map(codeOf)).to.deep.equal([
      JSON_RPC_ERROR.parseError,
      JSON_RPC_ERROR.invalidRequest,
      JSON_RPC_ERROR.methodNotFound,
      JSON_RPC_ERROR.invalidParams,
      'ok',
    ]);
    await ingest.close();
  });

  it('reports the thread active while a turn is open and idle after it completes; E4 leaves it active', async () => {
    const ingest = createThreadIngest({ store: createMemoryEventStore() });
    expect(await ingest.threadStatus('A')).to.equal('idle');
    await ingest.ingest(b.sdk('A', b.agentStart()));
    expect(await ingest.threadStatus('A')).to.equal('active');
    await ingest.ingest(b.sdk('A', b.agentEnd([b.customMessage('string content'), b.assistantMessage('done')])));
    expect(await ingest.threadStatus('A')).to.equal('idle');
    await ingest.ingest(b.sdk('A', b.agentStart()));
    await ingest.ingest(b.sdk('A', { type: 'agent_end', messages: [{ content: 'no role' }] }));
    expect(await ingest.threadStatus('A')).to.equal('active');
    await ingest.close();
  });

  it('uses the injected providerThreadId and context window', async () => {
    const ingest = createThreadIngest({
      store: createMemoryEventStore(),
      providerThreadIdFor: () => 'pi-session-7',
      contextWindowFor: () => 128_000,
    });
    await ingest.ingest(b.sdk('A', b.agentStart()));
    const rows = rowsOf(await ingest.ingest(b.sdk('A', b.agentEnd([b.assistantMessage('x', { usage: b.usage(1000, 50, 200) })]))));
    expect(rows.every((row) => row.data.providerThreadId === 'pi-session-7')).to.equal(true);
    expect(rows.at(-1)!.data['contextWindowUsage']).to.deep.equal({ usedTokens: 1250, modelContextWindow: 128_000, estimated: false });
    await ingest.close();
  });

  it('answers the frames that waited on a failed store read with an error value, and reads again for later frames', async () => {
    const store = createMemoryEventStore();
    let failReads = 1;
    const flaky: EventStore = {
      ...store,
      list: (threadId, options) => (failReads-- > 0 ? Promise.reject(new Error('disk on fire')) : store.list(threadId, options)),
    };
    const ingest = createThreadIngest({ store: flaky });
    const first = await Promise.all(
      b
        .clientTurn('A', 'one', ['a1'])
        .slice(0, 3)
        .map((frame) => ingest.ingest(frame)),
    );
    expect(first.map(codeOf)).to.deep.equal([JSON_RPC_ERROR.internalError, JSON_RPC_ERROR.internalError, JSON_RPC_ERROR.internalError]);
    expect(first.map((outcome) => (outcome.ok ? '' : outcome.error.data))).to.deep.equal([
      'Error: disk on fire',
      'Error: disk on fire',
      'Error: disk on fire',
    ]);
    const again = await Promise.all(b.clientTurn('A', 'two', ['a2']).map((frame) => ingest.ingest(frame)));
    const rows = again.flatMap(rowsOf);
    expect(threadViolations(rows)).to.deep.equal([]);
    expect(rows.map((row) => row.seq)[0]).to.equal(1);
    await ingest.close();
  });

  it('after a failed append, continues the thread from what was stored: no row of a turn whose start was lost', async () => {
    const store = createMemoryEventStore();
    let failTurnStart = true;
    const flaky: EventStore = {
      ...store,
      append: (events) => {
        if (failTurnStart && events.some((event) => event.type === 'turn/started')) {
          failTurnStart = false;
          return Promise.reject(new Error('disk full'));
        }
        return Promise.resolve().then(() => lastValueFrom(from(store.append(events))));
      },
    };
    const ingest = createThreadIngest({ store: flaky });
    const turn = b.clientTurn('A', 'one', ['a1', 'a2']);
    const start = await Promise.all(turn.slice(0, 2).map((frame) => ingest.ingest(frame))); // the append of turn/started fails
    expect(start.map(codeOf)).to.deep.equal(['ok', JSON_RPC_ERROR.internalError]);
    // The run goes on streaming: its rows must not claim a turn the store never saw start.
    for (const frame of turn.slice(2)) await ingest.ingest(frame);
    await Promise.all(b.clientTurn('A', 'two', ['b1']).map((frame) => ingest.ingest(frame)));
    const rows = await store.list('A');
    expect(threadViolations(rows)).to.deep.equal([]);
    expect(rows.filter((row) => row.type === 'turn/completed')).to.have.lengthOf(rows.filter((row) => row.type === 'turn/started').length);
    expect(await ingest.threadStatus('A')).to.equal('idle');
    await ingest.close();
  });

  it('rejects frames after close instead of leaving them unanswered', async () => {
    const ingest = createThreadIngest({ store: createMemoryEventStore() });
    await ingest.close();
    expect(codeOf(await ingest.ingest(b.sdk('A', b.agentStart())))).to.equal(JSON_RPC_ERROR.internalError);
  });

  describe('restart on the same nedb data dir', () => {
    let temp: Awaited<ReturnType<typeof makeTempDir>>;
    beforeEach(async () => (temp = await makeTempDir()));
    afterEach(() => temp.remove());

    /** Ingests `frames` one by one, then stops the ingest and closes the store: a process that ended. Returns A's row count. */
    const ranBefore = async (frames: unknown[]) => {
      const store = await openNedbEventStore({ dataDir: temp.dir });
      const ingest = createThreadIngest({ store });
      for (const frame of frames) await ingest.ingest(frame);
      await ingest.close();
      const stored = (await store.list('A')).length;
      await store.close();
      return stored;
    };

    /** The next process on the same data dir. */
    const restarted = async () => {
      const store = await openNedbEventStore({ dataDir: temp.dir });
      const ingest = createThreadIngest({ store });
      return { store, ingest, close: async () => (await ingest.close(), await store.close()) };
    };

    /** The rows after the earlier process's own: what the restore and the frames sent since stored. */
    const lateRows = (rows: StoredThreadEvent[], from: number) => rows.filter((row) => row.seq > from);

    it('closes the turn a run of the earlier process left open, before any other row: interrupted, with the reason (issue 12)', async () => {
      const frames = b.clientTurn('A', 'hi', ['Hel', 'lo', ' world']);
      const half = frames.findIndex((frame) => JSON.stringify(frame).includes('"delta":"lo"')) + 1;
      const storedBefore = await ranBefore(frames.slice(0, half));

      const { store: store2, ingest: ingest2, close } = await restarted();
      expect(await ingest2.threadStatus('A')).to.equal('idle');
      // What the dead run still sends (an intake agent that outlived the process) stays outside the closed turn.
      for (const frame of frames.slice(half)) await ingest2.ingest(frame);
      const rows = await store2.list('A');
      expect(threadViolations(rows)).to.deep.equal([]);
      const after = lateRows(rows, storedBefore);
      expect(after[0]!.type).to.equal('item/completed'); // the half-streamed message, completed with the turn
      expect(after[1]!.type).to.equal('turn/completed');
      expect(after[1]!.data).to.deep.include({ status: 'interrupted', error: { message: RUN_LOST_MESSAGE } });
      const late = after.slice(2);
      expect(late.length).to.be.greaterThan(0);
      expect(late.every((row) => row.type === 'provider/unhandled' && row.turnId === null && row.scope.kind === 'thread')).to.equal(true);
      expect(late.map((row) => row.data['rawType'])).to.include('sdk/agent_end');
      expect(rows.filter((row) => row.type === 'turn/completed')).to.have.lengthOf(1);
      expect(await ingest2.threadStatus('A')).to.equal('idle');

      // The next prompt starts a new turn (followUp: false) whose answer is its own.
      for (const frame of b.clientTurn('A', 'again', ['new answer'])) await ingest2.ingest(frame);
      const all = await store2.list('A');
      expect(threadViolations(all)).to.deep.equal([]);
      const turnIds = new Set(all.filter((row) => row.type === 'turn/started').map((row) => row.turnId));
      expect(turnIds.size).to.equal(2);
      expect(all.filter((row) => row.type === 'turn/completed').at(-1)!.data).to.deep.include({ status: 'completed' });
      await close();
    });

    it('closes the dead turn first when the rest of the old run and other threads arrive all at once while the thread is still being read back', async () => {
      const frames = b.clientTurn('A', 'hi', ['Hel', 'lo', ' world']);
      const half = frames.findIndex((frame) => JSON.stringify(frame).includes('"delta":"lo"'));
      await ranBefore(frames.slice(0, half));

      const { store: store2, ingest: ingest2, close } = await restarted();
      // Not awaited one by one: every frame arrives before the store has answered the read of thread A.
      const outcomes = await Promise.all(
        [...frames.slice(half), ...b.clientTurn('B', 'other', ['b'])].map((frame) => ingest2.ingest(frame)),
      );
      const answered = outcomes.flatMap(rowsOf);
      const rows = await store2.list('A');
      expect(threadViolations(rows)).to.deep.equal([]);
      const closedAt = rows.findIndex((row) => row.type === 'turn/completed');
      expect(rows[closedAt]!.data).to.deep.include({ status: 'interrupted', error: { message: RUN_LOST_MESSAGE } });
      // Every row answered to a frame of A comes after the restore closed the turn, in send order.
      const answeredA = answered.filter((row) => row.threadId === 'A');
      expect(answeredA).to.deep.equal(rows.slice(rows.length - answeredA.length));
      expect(answeredA[0]!.seq).to.be.greaterThan(rows[closedAt]!.seq);
      expect(answeredA.every((row) => row.type === 'provider/unhandled' && row.turnId === null)).to.equal(true);
      expect(rows.filter((row) => row.type === 'turn/completed')).to.have.lengthOf(1);
      expect(threadViolations(await store2.list('B'))).to.deep.equal([]);
      await close();
    });

    it('keeps the running token total across a restart', async () => {
      await ranBefore(b.clientTurn('A', 'one', ['x'], b.usage(100, 10)));
      const { store: store2, ingest: ingest2, close } = await restarted();
      for (const frame of b.clientTurn('A', 'two', ['y'], b.usage(200, 20))) await ingest2.ingest(frame);
      const usage = (await store2.list('A')).filter((row) => row.type === 'thread/tokenUsage/updated').at(-1)!;
      expect(usage.data['tokenUsage']).to.deep.include({
        total: { totalTokens: 330, inputTokens: 300, cachedInputTokens: 0, outputTokens: 30 },
      });
      await close();
    });
  });
});
