import { expect } from 'chai';
import { map } from 'rxjs';
import { threadEvents } from '../../pipelines/thread-events';
import { createMemoryEventStore } from '../../src/store/memoryEventStore';
import type { StoredThreadEvent } from '../../src/store/eventStore';
import { sequentialIds, testScheduler } from '../helpers/pipeline/marbles';
import * as a from '../helpers/pipeline/acp';
import { runPipeline, typesOf } from '../helpers/pipeline/run';

const T = 'thr_think';
const marbleFrames = (frames: unknown[]) =>
  Object.fromEntries(frames.map((frame, i) => [String.fromCharCode(97 + i), { correlationId: i + 1, frame }]));
const thought = (text: string, messageId?: string) =>
  a.update(T, 'agent_thought_chunk', { content: { type: 'text', text }, ...(messageId === undefined ? {} : { messageId }) });
const plan = (entries: unknown) => a.update(T, 'plan', { entries });
const itemOf = (row: StoredThreadEvent | undefined) => (row?.data as { item?: Record<string, unknown> } | undefined)?.item;

/** A row as `type itemType` (items), `type delta` (deltas) or its type. */
function summary(row: StoredThreadEvent): string {
  const data = row.data as Record<string, unknown>;
  const item = itemOf(row);
  if (item) return `${row.type} ${String(item['type'])}`;
  if (typeof data['delta'] === 'string') return `${row.type} ${data['delta']}`;
  return row.type;
}

describe('thread-events pipeline: ACP reasoning and plans (issue 27)', () => {
  it('thought chunks are one reasoning item with its deltas; the answer that follows completes it (E2 order after)', () => {
    const frames = [a.started(T), thought('Let me '), thought('look.'), a.chunk(T, 'Found it.'), a.ended(T)];
    testScheduler().run(({ cold, expectObservable }) => {
      const out = cold('abcde|', marbleFrames(frames)).pipe(
        threadEvents({ store: createMemoryEventStore(), newId: sequentialIds('t') }),
        map((step) => (step.ok ? step.value.rows.map(summary) : [step.error.message])),
      );
      expectObservable(out).toBe('abcde|', {
        a: ['turn/started'],
        b: ['item/started reasoning', 'item/reasoning/delta Let me '],
        c: ['item/reasoning/delta look.'],
        d: ['item/completed reasoning', 'item/started agentMessage', 'item/agentMessage/delta Found it.'],
        e: ['item/completed agentMessage', 'turn/completed'],
      });
    });
  });

  it('a reasoning item completes with its whole text, at a tool call or at the turn end', async () => {
    const { rows } = await runPipeline([
      a.started(T),
      thought('First '),
      thought('thought.'),
      ...a.codexCommand(T, 'c1', 'ls', ['a\n']),
      thought('Second.'),
      a.ended(T),
    ]);
    const reasoning = rows.filter((row) => itemOf(row)?.['type'] === 'reasoning');
    expect(reasoning.map((row) => [row.type, itemOf(row)?.['text']])).to.deep.equal([
      ['item/started', ''],
      ['item/completed', 'First thought.'],
      ['item/started', ''],
      ['item/completed', 'Second.'],
    ]);
    expect(typesOf(rows).slice(-2)).to.deep.equal(['item/completed', 'turn/completed']);
    expect(rows.every((row) => row.turnId === rows[0]?.turnId)).to.equal(true);
  });

  it('the agent’s plan is a turn/plan/updated row with the whole plan each time it changes', async () => {
    const { rows } = await runPipeline([
      a.started(T),
      plan([
        { content: 'Read the code', priority: 'high', status: 'in_progress' },
        { content: 'Fix the bug', priority: 'medium', status: 'pending' },
      ]),
      plan([
        { content: 'Read the code', priority: 'high', status: 'completed' },
        { content: 'Fix the bug', priority: 'medium', status: 'in_progress' },
      ]),
      a.ended(T),
    ]);
    expect(typesOf(rows)).to.deep.equal(['turn/started', 'turn/plan/updated', 'turn/plan/updated', 'turn/completed']);
    expect(rows.slice(1, 3).map((row) => (row.data as { plan: unknown }).plan)).to.deep.equal([
      [
        { step: 'Read the code', status: 'inProgress', priority: 'high' },
        { step: 'Fix the bug', status: 'pending', priority: 'medium' },
      ],
      [
        { step: 'Read the code', status: 'completed', priority: 'high' },
        { step: 'Fix the bug', status: 'inProgress', priority: 'medium' },
      ],
    ]);
  });

  it('reads a plan leniently: an unknown status is pending, no priority is left out, an entry without text is skipped', async () => {
    const { rows } = await runPipeline([
      a.started(T),
      plan([{ content: 'Ship it', status: 'blocked' }, { content: 'Tell', status: 'completed', priority: 3 }, { status: 'pending' }, 'x']),
      plan('not a list'),
    ]);
    expect(typesOf(rows)).to.deep.equal(['turn/started', 'turn/plan/updated', 'provider/unhandled']);
    expect((rows[1]?.data as { plan: unknown }).plan).to.deep.equal([
      { step: 'Ship it', status: 'pending' },
      { step: 'Tell', status: 'completed' },
    ]);
    expect(rows[2]?.data).to.deep.include({ rawType: 'acp/plan' });
  });

  it('a plan sent outside any turn is thread-scoped', async () => {
    const { rows } = await runPipeline([plan([{ content: 'Later', status: 'pending' }])]);
    expect(rows.map((row) => [row.type, row.scope])).to.deep.equal([['turn/plan/updated', { kind: 'thread' }]]);
  });
});
