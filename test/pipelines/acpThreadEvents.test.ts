import { expect } from 'chai';
import { from, lastValueFrom, map, toArray } from 'rxjs';
import { threadEvents } from '../../pipelines/thread-events';
import { THREAD_STOP_METHOD } from '../../src/protocol/signals';
import { createMemoryEventStore } from '../../src/store/memoryEventStore';
import type { StoredThreadEvent } from '../../src/store/eventStore';
import { sequentialIds, testScheduler } from '../helpers/pipeline/marbles';
import * as a from '../helpers/pipeline/acp';
import { runPipeline, typesOf } from '../helpers/pipeline/run';

const T = 'thr_acp';
const marbleFrames = (frames: unknown[]) =>
  Object.fromEntries(frames.map((frame, i) => [String.fromCharCode(97 + i), { correlationId: i + 1, frame }]));
const stop = (threadId: string) => ({ jsonrpc: '2.0', method: THREAD_STOP_METHOD, params: { threadId } });
const itemOf = (row: StoredThreadEvent | undefined) => (row?.data as { item?: Record<string, unknown> } | undefined)?.item;

describe('thread-events pipeline: ACP agents', () => {
  it('one session/prompt is one turn: a streamed answer, then usage, the turn and the context window (E2 order)', () => {
    const frames = [
      a.started(T),
      a.usageUpdate(T, 148),
      a.chunk(T, 'Hel'),
      a.chunk(T, 'lo'),
      a.update(T, 'session_info_update', { title: 'say hello' }),
      a.ended(T, 'end_turn', a.acpUsage(120, 8, 20)),
    ];
    testScheduler().run(({ cold, expectObservable }) => {
      const out = cold('abcdef|', marbleFrames(frames)).pipe(
        threadEvents({ store: createMemoryEventStore(), newId: sequentialIds('t') }),
        map((step) => (step.ok ? step.value.rows.map((row) => `${row.seq} ${row.type} ${row.turnId}`) : step.error.message)),
      );
      expectObservable(out).toBe('abcdef|', {
        a: ['1 turn/started t1'],
        b: ['2 thread/contextWindowUsage/updated t1'],
        c: ['3 item/started t1', '4 item/agentMessage/delta t1'],
        d: ['5 item/agentMessage/delta t1'],
        e: [],
        f: ['6 item/completed t1', '7 thread/tokenUsage/updated t1', '8 turn/completed t1', '9 thread/contextWindowUsage/updated t1'],
      });
    });
  });

  it('a chunk of another message (another messageId, or none after one) starts a new agent message item', async () => {
    const { rows } = await runPipeline([
      a.started(T),
      a.chunk(T, 'Hello', 'm1'),
      a.chunk(T, ' there', 'm1'),
      a.update(T, 'agent_message_chunk', { content: { type: 'text', text: 'A notice.' } }),
      a.chunk(T, 'Bye.', 'm2'),
      a.ended(T),
    ]);
    const texts = rows.filter((row) => row.type === 'item/completed').map((row) => itemOf(row)?.['text']);
    expect(texts).to.deep.equal(['Hello there', 'A notice.', 'Bye.']);
  });

  it("shows Claude's command once its command line is known, with its output and exit code, between the texts", () => {
    const frames = [
      a.started(T),
      a.chunk(T, 'Running.'),
      ...a.claudeCommand(T, 'toolu_1', 'echo hi', 'hi'),
      a.chunk(T, 'Done.'),
      a.ended(T),
    ];
    testScheduler().run(({ cold, expectObservable }) => {
      const out = cold('abcdefgh|', marbleFrames(frames)).pipe(
        threadEvents({ store: createMemoryEventStore(), newId: sequentialIds('t') }),
        map((step) =>
          step.ok ? step.value.rows.map((row) => `${row.type} ${String(itemOf(row)?.['type'] ?? '')}`.trim()) : step.error.message,
        ),
      );
      expectObservable(out).toBe('abcdefgh|', {
        a: ['turn/started'],
        b: ['item/started agentMessage', 'item/agentMessage/delta'],
        c: ['item/completed agentMessage'], // held: Claude announces the call before its command
        d: ['item/started commandExecution'],
        e: [],
        f: ['item/commandExecution/outputDelta', 'item/completed commandExecution'],
        g: ['item/started agentMessage', 'item/agentMessage/delta'],
        h: ['item/completed agentMessage', 'turn/completed'],
      });
    });
  });

  it('a command item carries the command at start and its output and exit code at completion (Claude and Codex alike)', async () => {
    for (const frames of [a.claudeCommand(T, 'c1', 'echo hi', 'hi\n'), a.codexCommand(T, 'c1', 'echo hi', ['h', 'i\n'])]) {
      const { rows } = await runPipeline([a.started(T), ...frames, a.ended(T)]);
      const started = rows.find((row) => row.type === 'item/started');
      const completed = rows.find((row) => row.type === 'item/completed');
      expect(itemOf(started)).to.deep.equal({
        type: 'commandExecution',
        id: 'c1',
        command: 'echo hi',
        status: 'inProgress',
        aggregatedOutput: '',
      });
      expect(itemOf(completed)).to.deep.equal({
        type: 'commandExecution',
        id: 'c1',
        command: 'echo hi',
        status: 'completed',
        aggregatedOutput: 'hi\n',
        exitCode: 0,
      });
      const deltas = rows
        .filter((row) => row.type === 'item/commandExecution/outputDelta')
        .map((row) => (row.data as { delta: string }).delta);
      expect(deltas.join('')).to.equal('hi\n');
    }
  });

  it('a failed command keeps its exit code', async () => {
    const { rows } = await runPipeline([a.started(T), ...a.codexCommand(T, 'c1', 'false', [], 1), a.ended(T)]);
    expect(itemOf(rows.find((row) => row.type === 'item/completed'))).to.include({ status: 'failed', exitCode: 1 });
  });

  it('an edit is a fileChange item with the diff the agent sent', async () => {
    const diff = { type: 'diff', path: '/work/a.txt', oldText: 'one\n', newText: 'two\n' };
    const { rows } = await runPipeline([
      a.started(T),
      a.update(T, 'tool_call', {
        toolCallId: 'e1',
        title: 'Edit a.txt',
        kind: 'edit',
        status: 'pending',
        content: [diff],
        locations: [{ path: '/work/a.txt' }],
      }),
      a.update(T, 'tool_call_update', { toolCallId: 'e1', status: 'completed' }),
      a.ended(T),
    ]);
    expect(itemOf(rows.find((row) => row.type === 'item/started'))).to.deep.equal({
      type: 'fileChange',
      id: 'e1',
      tool: 'edit',
      path: '/work/a.txt',
      status: 'inProgress',
    });
    expect(itemOf(rows.find((row) => row.type === 'item/completed'))).to.deep.equal({
      type: 'fileChange',
      id: 'e1',
      tool: 'edit',
      path: '/work/a.txt',
      status: 'completed',
      diff: '--- /work/a.txt\n+++ /work/a.txt\n-one\n+two',
    });
  });

  it('an update for a tool call never announced inserts it (Gemini), and other kinds are toolCall items', async () => {
    const { rows } = await runPipeline([
      a.started(T),
      a.update(T, 'tool_call_update', {
        toolCallId: 'r1',
        title: 'Read a.txt',
        kind: 'read',
        status: 'completed',
        rawInput: { path: 'a.txt' },
        rawOutput: 'x',
      }),
      a.ended(T),
    ]);
    expect(typesOf(rows)).to.deep.equal(['turn/started', 'item/started', 'item/completed', 'turn/completed']);
    expect(itemOf(rows[2])).to.deep.equal({
      type: 'toolCall',
      id: 'r1',
      tool: 'Read a.txt',
      arguments: { path: 'a.txt' },
      status: 'completed',
      result: 'x',
    });
  });

  it('a stop while the prompt runs completes the turn interrupted once, at the cancelled answer', () => {
    const frames = [a.started(T), a.chunk(T, 'Hel'), stop(T), a.chunk(T, 'lo'), a.ended(T, 'cancelled'), stop(T)];
    testScheduler().run(({ cold, expectObservable }) => {
      const out = cold('abcdef|', marbleFrames(frames)).pipe(
        threadEvents({ store: createMemoryEventStore(), newId: sequentialIds('t') }),
        map((step) =>
          step.ok
            ? step.value.rows.map((row) =>
                row.type === 'turn/completed' ? `${row.type} ${(row.data as { status: string }).status}` : row.type,
              )
            : step.error.message,
        ),
      );
      expectObservable(out).toBe('abcdef|', {
        a: ['turn/started'],
        b: ['item/started', 'item/agentMessage/delta'],
        c: [],
        d: ['item/agentMessage/delta'],
        e: ['item/completed', 'turn/completed interrupted'],
        f: [],
      });
    });
  });

  const failures: Array<[string, unknown, string]> = [
    ['refusal', undefined, 'The agent refused to continue (stopReason: refusal)'],
    ['max_tokens', undefined, 'The model reached its output token limit (stopReason: max_tokens)'],
    ['max_turn_requests', undefined, 'The agent reached its limit of model requests for one prompt (stopReason: max_turn_requests)'],
    ['something_new', undefined, 'The agent stopped: something_new'],
  ];
  for (const [stopReason, error, message] of failures) {
    it(`stopReason ${stopReason} completes the turn failed with the reason`, async () => {
      const { rows } = await runPipeline([a.started(T), a.ended(T, stopReason, undefined, error)]);
      expect(rows.at(-1)?.data).to.include({ status: 'failed' });
      expect((rows.at(-1)?.data as { error?: unknown }).error).to.deep.equal({ message });
    });
  }

  it('a prompt that fails (the agent died) completes the turn failed with the error', async () => {
    const { rows } = await runPipeline([a.started(T), a.chunk(T, 'Hel'), a.acpPromptFailed(T, 'the claude agent exited (code 1)')]);
    expect(rows.at(-1)?.data).to.deep.include({ status: 'failed', error: { message: 'the claude agent exited (code 1)' } });
  });

  it('keeps an unknown update kind as provider/unhandled and rejects a malformed frame, and the stream goes on', async () => {
    const { steps, rows } = await runPipeline([
      a.started(T),
      a.update(T, 'brand_new_kind', { x: 1 }),
      { jsonrpc: '2.0', method: 'acp/update', params: { threadId: T, update: { noKind: true } } },
      a.chunk(T, 'ok'),
      a.ended(T),
    ]);
    expect(steps[2]).to.deep.include({ ok: false });
    expect((steps[2] as { error: { message: string } }).error.message).to.equal('Invalid params');
    expect(typesOf(rows)).to.deep.equal([
      'turn/started',
      'provider/unhandled',
      'item/started',
      'item/agentMessage/delta',
      'item/completed',
      'turn/completed',
    ]);
    expect(rows[1]?.data).to.deep.include({ rawType: 'acp/brand_new_kind' });
  });

  it('updates outside a turn (commands, modes, a title after the answer) and thoughts are no turn and no row', async () => {
    const { rows } = await runPipeline([
      a.update(T, 'available_commands_update', { availableCommands: [] }),
      a.update(T, 'current_mode_update', { currentModeId: 'default' }),
      a.update(T, 'agent_thought_chunk', { content: { type: 'text', text: 'hmm' } }),
      a.started(T),
      a.ended(T),
      a.update(T, 'session_info_update', { title: 'A title' }),
    ]);
    expect(typesOf(rows)).to.deep.equal(['turn/started', 'turn/completed']);
  });

  it("Gemini CLI's mode report (an agent_message_chunk `[MODE_UPDATE] <mode>`) is no row, before a turn or inside one", () => {
    const modeReport = (mode: string) => a.update(T, 'agent_message_chunk', { content: { type: 'text', text: `[MODE_UPDATE] ${mode}` } });
    const frames = [modeReport('autoEdit'), a.started(T), a.chunk(T, 'Hello'), modeReport('plan'), a.chunk(T, ' there'), a.ended(T)];
    testScheduler().run(({ cold, expectObservable }) => {
      const out = cold('abcdef|', marbleFrames(frames)).pipe(
        threadEvents({ store: createMemoryEventStore(), newId: sequentialIds('t') }),
        map((step) =>
          step.ok ? step.value.rows.map((row) => `${row.type} ${String(itemOf(row)?.['text'] ?? '')}`.trim()) : step.error.message,
        ),
      );
      expectObservable(out).toBe('abcdef|', {
        a: [],
        b: ['turn/started'],
        c: ['item/started', 'item/agentMessage/delta'],
        d: [],
        e: ['item/agentMessage/delta'],
        f: ['item/completed Hello there', 'turn/completed'],
      });
    });
  });

  it('leaves pi frames alone: the same thread can carry both without one changing the other', async () => {
    const { rows } = await runPipeline([
      a.started(T),
      a.ended(T),
      { jsonrpc: '2.0', method: 'pi/prompt/started', params: { threadId: T } },
    ]);
    expect(typesOf(rows)).to.deep.equal(['turn/started', 'turn/completed']);
  });

  it("names the thread's agent in provider/unhandled rows when the daemon knows it, pi otherwise", async () => {
    const frames = [a.started(T), a.update(T, 'brand_new_kind'), a.update('thr_other', 'brand_new_kind')];
    const steps = await lastValueFrom(
      from(frames.map((frame, i) => ({ correlationId: i + 1, frame }))).pipe(
        threadEvents({
          store: createMemoryEventStore(),
          newId: sequentialIds('t'),
          providerIdFor: (threadId) => (threadId === T ? 'claude' : undefined),
        }),
        toArray(),
      ),
    );
    const unhandled = steps.flatMap((step) => (step.ok ? step.value.rows : [])).filter((row) => row.type === 'provider/unhandled');
    expect(unhandled.map((row) => (row.data as { providerId: string }).providerId)).to.deep.equal(['claude', 'pi']);
  });
});
