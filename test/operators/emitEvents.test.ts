import { expect } from 'chai';
import { map } from 'rxjs';
import { emitEvents, UNKNOWN_CONTEXT_WINDOW } from '../../src/operators/emitEvents';
import type { OpenToolItem, TurnFact } from '../../src/turns/turnState';
import type { Step, ThreadFacts } from '../../src/operators/stageValues';
import { ThreadEventDataSchemas, type ThreadEventType } from '../../src/protocol/threadEvents';
import { testScheduler } from '../helpers/pipeline/marbles';

const factsStep = (facts: TurnFact[], threadId = 'thr_1'): Step<ThreadFacts> => ({
  correlationId: 1,
  ok: true,
  value: { threadId, facts, turnOpen: true },
});

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
              {
                threadId: 'thr_1',
                type: 'turn/started',
                turnId: 't1',
                scope: { kind: 'turn', turnId: 't1' },
                data: { providerThreadId: 'pi-session-of-thr_1', origin: 'client' },
              },
              {
                threadId: 'thr_1',
                type: 'item/agentMessage/delta',
                turnId: 't1',
                scope: { kind: 'turn', turnId: 't1' },
                data: { providerThreadId: 'pi-session-of-thr_1', itemId: 'i1', delta: 'Hi' },
              },
            ],
          },
        },
      });
    });
  });

  it('shapes what the user sent as a Codex userMessage item: item/started, then item/completed, valid rows', () => {
    const item = { type: 'userMessage' as const, id: 'u1', content: [{ type: 'text' as const, text: 'Say hello' }] };
    testScheduler().run(({ cold, expectObservable }) => {
      const input = cold('a|', {
        a: factsStep([
          { kind: 'userMessageStarted', item, turnId: 't1' },
          { kind: 'userMessageCompleted', item, turnId: 't1' },
        ]),
      });
      const out = input.pipe(
        emitEvents(),
        map((step) => step.ok && step.value.events.map(({ type, data }) => ({ type, data }))),
      );
      expectObservable(out).toBe('a|', {
        a: [
          { type: 'item/started', data: { providerThreadId: 'thr_1', item } },
          { type: 'item/completed', data: { providerThreadId: 'thr_1', item } },
        ],
      });
    });
    expect(ThreadEventDataSchemas['item/completed'].parse({ providerThreadId: 'p', item }).item).to.deep.equal(item);
  });

  it('gives events outside a turn the thread scope and a null turn id', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const input = cold('a|', { a: factsStep([{ kind: 'unhandled', rawType: 'sdk/x', rawEvent: { y: 1 }, turnId: null }]) });
      const out = input.pipe(
        emitEvents(),
        map((step) => step.ok && step.value.events.map(({ turnId, scope, data }) => ({ turnId, scope, data }))),
      );
      expectObservable(out).toBe('a|', {
        a: [
          {
            turnId: null,
            scope: { kind: 'thread' },
            data: { providerThreadId: 'thr_1', providerId: 'pi', rawType: 'sdk/x', rawEvent: { y: 1 } },
          },
        ],
      });
    });
  });

  const windows: Array<{ name: string; window: number | undefined; estimated: boolean; fact: boolean; expected: number }> = [
    { name: 'a known window and reported usage', window: 200_000, fact: false, estimated: false, expected: 200_000 },
    { name: 'a known window but no usage reported', window: 200_000, fact: true, estimated: true, expected: 200_000 },
    {
      name: 'an unknown model (falls back to 0, estimated)',
      window: undefined,
      fact: false,
      estimated: true,
      expected: UNKNOWN_CONTEXT_WINDOW,
    },
  ];
  for (const { name, window, fact, estimated, expected } of windows) {
    it(`reports the context window for ${name}`, () => {
      testScheduler().run(({ cold, expectObservable }) => {
        const input = cold('a|', { a: factsStep([{ kind: 'contextWindowUsage', usedTokens: 1234, estimated: fact, turnId: 't1' }]) });
        const out = input.pipe(
          emitEvents({ contextWindowFor: () => window }),
          map((step) => step.ok && step.value.events[0]!.data['contextWindowUsage']),
        );
        expectObservable(out).toBe('a|', { a: { usedTokens: 1234, modelContextWindow: expected, estimated } });
      });
    });
  }

  const bash: OpenToolItem = { kind: 'commandExecution', command: 'echo hi', id: 'call_1', output: '', outputBytes: 0 };
  const edit: OpenToolItem = { kind: 'fileChange', tool: 'edit', path: 'a.txt', id: 'call_2', output: '', outputBytes: 0 };
  const read: OpenToolItem = { kind: 'toolCall', tool: 'read', arguments: { path: 'a.txt' }, id: 'call_3', output: '', outputBytes: 0 };
  const itemsOf = (facts: TurnFact[], deps = {}) => {
    let items: unknown[] = [];
    testScheduler().run(({ cold }) => {
      cold('a|', { a: factsStep(facts) })
        .pipe(emitEvents(deps))
        .subscribe((step) => {
          if (!step.ok) throw new Error('unexpected rejection');
          items = step.value.events.map(({ type, data }) => ({
            type,
            ...(data['item'] ? { item: data['item'] } : { itemId: data['itemId'], delta: data['delta'] }),
          }));
        });
    });
    return items;
  };

  it('shapes a bash run as a commandExecution item: inProgress, output deltas, then completed with output and exit code', () => {
    expect(
      itemsOf([
        { kind: 'toolStarted', tool: bash, turnId: 't' },
        { kind: 'toolOutputDelta', itemId: 'call_1', delta: 'hi\n', turnId: 't' },
        { kind: 'toolCompleted', tool: bash, outcome: { status: 'completed', text: 'hi\n', exitCode: 0 }, turnId: 't' },
      ]),
    ).to.deep.equal([
      {
        type: 'item/started',
        item: { type: 'commandExecution', id: 'call_1', command: 'echo hi', status: 'inProgress', aggregatedOutput: '' },
      },
      { type: 'item/commandExecution/outputDelta', itemId: 'call_1', delta: 'hi\n' },
      {
        type: 'item/completed',
        item: { type: 'commandExecution', id: 'call_1', command: 'echo hi', status: 'completed', aggregatedOutput: 'hi\n', exitCode: 0 },
      },
    ]);
  });

  it('shapes edit/write as fileChange items with the diff pi gives, and other tools as toolCall items with their result', () => {
    const result = { content: [{ type: 'text', text: 'file text' }] };
    expect(
      itemsOf([
        { kind: 'toolCompleted', tool: edit, outcome: { status: 'completed', text: 'ok', diff: '-1 a\n+1 b' }, turnId: 't' },
        { kind: 'toolCompleted', tool: edit, outcome: { status: 'failed', text: 'Could not find the text' }, turnId: 't' },
        { kind: 'toolStarted', tool: read, turnId: 't' },
        { kind: 'toolCompleted', tool: read, outcome: { status: 'completed', text: 'file text', result }, turnId: 't' },
      ]),
    ).to.deep.equal([
      {
        type: 'item/completed',
        item: { type: 'fileChange', id: 'call_2', tool: 'edit', path: 'a.txt', status: 'completed', diff: '-1 a\n+1 b' },
      },
      {
        type: 'item/completed',
        item: { type: 'fileChange', id: 'call_2', tool: 'edit', path: 'a.txt', status: 'failed', error: 'Could not find the text' },
      },
      { type: 'item/started', item: { type: 'toolCall', id: 'call_3', tool: 'read', arguments: { path: 'a.txt' }, status: 'inProgress' } },
      {
        type: 'item/completed',
        item: { type: 'toolCall', id: 'call_3', tool: 'read', arguments: { path: 'a.txt' }, status: 'completed', result },
      },
    ]);
  });

  const checkpoints: Array<{ name: string; lookup: (() => string | undefined) | undefined; expected: string }> = [
    { name: "the agent session's checkpoint from checkpointIdFor", lookup: () => 'leaf-entry-7', expected: 'leaf-entry-7' },
    { name: 'the turn id without checkpointIdFor', lookup: undefined, expected: 't9' },
    { name: 'the turn id when checkpointIdFor does not know the thread', lookup: () => undefined, expected: 't9' },
    {
      name: 'the turn id when checkpointIdFor throws (the turn still completes)',
      lookup: () => {
        throw new Error('session gone');
      },
      expected: 't9',
    },
  ];
  for (const { name, lookup, expected } of checkpoints) {
    it(`sets providerCheckpointId on turn/completed to ${name}`, () => {
      testScheduler().run(({ cold, expectObservable }) => {
        const input = cold('a|', { a: factsStep([{ kind: 'turnCompleted', status: 'completed', turnId: 't9' }]) });
        const deps = lookup ? { checkpointIdFor: lookup } : {};
        const out = input.pipe(
          emitEvents(deps),
          map((step) => step.ok && step.value.events[0]!.data['providerCheckpointId']),
        );
        expectObservable(out).toBe('a|', { a: expected });
      });
    });
  }

  it('asks checkpointIdFor about the thread whose turn completes', () => {
    const asked: string[] = [];
    testScheduler().run(({ cold }) => {
      cold('a|', { a: factsStep([{ kind: 'turnCompleted', status: 'completed', turnId: 't1' }], 'thr_7') })
        .pipe(emitEvents({ checkpointIdFor: (threadId) => (asked.push(threadId), 'leaf') }))
        .subscribe();
    });
    expect(asked).to.deep.equal(['thr_7']);
  });

  it('writes data that matches the documented schema for every event type', () => {
    const counts = { totalTokens: 1, inputTokens: 1, cachedInputTokens: 0, outputTokens: 0 };
    const facts: TurnFact[] = [
      { kind: 'turnStarted', origin: 'agent', turnId: 't' },
      { kind: 'itemStarted', itemId: 'i', turnId: 't' },
      { kind: 'itemDelta', itemId: 'i', delta: 'x', turnId: 't' },
      { kind: 'itemCompleted', itemId: 'i', text: 'x', turnId: 't' },
      ...[bash, edit, read].flatMap((tool): TurnFact[] => [
        { kind: 'toolStarted', tool, turnId: 't' },
        {
          kind: 'toolCompleted',
          tool,
          outcome: { status: 'failed', text: 'e', exitCode: 1, diff: 'd', result: { content: [] } },
          turnId: 't',
        },
      ]),
      { kind: 'toolOutputDelta', itemId: 'call_1', delta: 'out', turnId: 't' },
      { kind: 'tokenUsage', last: counts, total: counts, turnId: 't' },
      { kind: 'turnCompleted', status: 'failed', error: { message: 'e' }, turnId: 't' },
      { kind: 'contextWindowUsage', usedTokens: 1, estimated: false, turnId: 't' },
      { kind: 'unhandled', rawType: 'sdk/x', rawEvent: {}, turnId: null },
      { kind: 'providerError', message: 'm', willRetry: true, turnId: null },
      { kind: 'reasoningStarted', itemId: 'r', turnId: 't' },
      { kind: 'reasoningDelta', itemId: 'r', delta: 'hmm', turnId: 't' },
      { kind: 'reasoningCompleted', itemId: 'r', text: 'hmm', turnId: 't' },
      { kind: 'planUpdated', plan: [{ step: 'Fix it', status: 'inProgress', priority: 'high' }], turnId: 't' },
      {
        kind: 'approvalRequested',
        request: {
          approvalId: 'ap1',
          subject: { kind: 'edit', title: 'Edit a.txt', diff: '-a\n+b', paths: ['/w/a.txt'] },
          options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
          permissionMode: 'ask',
        },
        turnId: 't',
      },
      { kind: 'approvalResolved', resolution: { approvalId: 'ap1', decidedBy: 'cancelled', reason: 'stopped' }, turnId: 't' },
      { kind: 'threadUpdated', changes: { title: 'Renamed', archived: true }, turnId: null },
      {
        kind: 'rewound',
        change: { method: 'thread/reverted', data: { turnId: 't', snapshotRef: 'refs/ats/reverts/x/before', undoneTurnIds: ['t'] } },
        turnId: null,
      },
      {
        kind: 'rewound',
        change: { method: 'thread/unreverted', data: { turnId: 't', snapshotRef: 'refs/ats/reverts/x/before' } },
        turnId: null,
      },
      ...shipRowFacts(),
    ];
    const checkedTypes = new Set<string>();
    testScheduler().run(({ cold }) => {
      cold('a|', { a: factsStep(facts) })
        .pipe(emitEvents())
        .subscribe((step) => {
          if (!step.ok) throw new Error('unexpected rejection');
          for (const event of step.value.events) {
            ThreadEventDataSchemas[event.type as ThreadEventType].parse(event.data);
            checkedTypes.add(event.type);
          }
        });
    });
    // A fork's `thread/forked` row is the server's own, written with the copied rows before any pipeline runs
    // for the new thread (src/server/fork/forkRows.ts, checked by test/server/fork); every other type is the pipeline's.
    const writtenByServer = ['thread/forked'];
    expect([...checkedTypes].sort()).to.deep.equal(
      Object.keys(ThreadEventDataSchemas)
        .filter((type) => !writtenByServer.includes(type))
        .sort(),
    );
  });
});

/** One fact of each ship row (issue 39, src/protocol/shipRows.ts). */
function shipRowFacts(): TurnFact[] {
  const pullRequest = { url: 'https://github.com/a/b/pull/7', number: 7, state: 'open' as const, base: 'main', head: 'feature' };
  return [
    {
      kind: 'shipRow',
      row: { type: 'git/committed', data: { sha: 'abc', message: 'm', files: ['a.txt'], branch: 'feature' } },
      turnId: null,
    },
    { kind: 'shipRow', row: { type: 'git/pushed', data: { remote: 'origin', branch: 'feature', sha: 'abc' } }, turnId: null },
    { kind: 'shipRow', row: { type: 'git/interrupted', data: { action: 'commit', message: 'nothing was committed' } }, turnId: null },
    { kind: 'shipRow', row: { type: 'pr/opened', data: { pullRequest } }, turnId: null },
    {
      kind: 'shipRow',
      row: { type: 'pr/state', data: { url: pullRequest.url, number: 7, state: 'merged', previous: 'open' } },
      turnId: null,
    },
  ];
}
