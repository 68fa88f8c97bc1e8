import type { NewThreadEvent } from '../../../src/store/eventStore';
import type { ThreadRecord } from '../../../src/registry/records';
import type { TestServer } from '../../helpers/server/harness';

/** What one turn of a thread said: the user's prompt, the agent's answer (streamed in two deltas), a command. */
export interface TurnWords {
  user: string;
  agent: string;
  command: string;
}

/** The item rows a turn stores, as the pipeline writes them (docs/events.md): deltas and starts that search skips included. */
export function turnRows(threadId: string, turn: number, words: TurnWords): NewThreadEvent[] {
  const turnId = `turn-${turn}`;
  const scope = { kind: 'turn' as const, turnId };
  const row = (type: string, data: unknown) => ({ threadId, type, turnId, scope, data }) as NewThreadEvent;
  const half = Math.ceil(words.agent.length / 2);
  return [
    row('item/started', { item: { type: 'userMessage', id: `u${turn}`, content: [{ type: 'text', text: words.user }] } }),
    row('item/completed', { item: { type: 'userMessage', id: `u${turn}`, content: [{ type: 'text', text: words.user }] } }),
    row('item/started', {
      item: { type: 'commandExecution', id: `c${turn}`, command: words.command, status: 'inProgress', aggregatedOutput: '' },
    }),
    row('item/completed', {
      item: {
        type: 'commandExecution',
        id: `c${turn}`,
        command: words.command,
        status: 'completed',
        aggregatedOutput: 'out\n',
        exitCode: 0,
      },
    }),
    row('item/started', { item: { type: 'agentMessage', id: `a${turn}`, text: '' } }),
    row('item/agentMessage/delta', { itemId: `a${turn}`, delta: words.agent.slice(0, half) }),
    row('item/agentMessage/delta', { itemId: `a${turn}`, delta: words.agent.slice(half) }),
    row('item/completed', { item: { type: 'agentMessage', id: `a${turn}`, text: words.agent } }),
  ];
}

let made = 0;

/** A thread in the registry of `t`'s server with the given turns stored; resolves once they are searchable. */
export async function threadWith(t: TestServer, fields: { title: string; projectId?: string }, turns: TurnWords[]): Promise<ThreadRecord> {
  const record: ThreadRecord = {
    id: `thr_search${process.pid}x${++made}x${Date.now()}`,
    projectId: fields.projectId ?? 'proj_a',
    environmentId: 'env_a',
    hostId: t.server.hostId,
    provider: 'none',
    model: 'none/model',
    title: fields.title,
    createdAt: new Date().toISOString(),
  };
  await t.server.registry.threads.insert(record);
  for (const [i, turn] of turns.entries()) await t.server.store.append(turnRows(record.id, i + 1, turn));
  await t.server.search.flushed();
  return record;
}

export interface Hit {
  threadId: string;
  seq: number;
  kind: string;
  title: string;
  excerpt: string;
  marks: [number, number][];
}

export async function search(t: TestServer, query: string): Promise<{ hits: Hit[]; nextCursor: string | null }> {
  return t.json(`/search?${query}`);
}

/** The marked words of a hit, as a reader sees them highlighted. */
export const markedWords = (hit: Hit) => hit.marks.map(([start, end]) => hit.excerpt.slice(start, end));
