import type { NewThreadEvent } from '../../src/store/eventStore';

const WORDS = [
  'the',
  '**build**',
  'failed',
  'in',
  '`npm test`',
  'because',
  'a',
  'fixture',
  'moved;',
  'see',
  '[the log](https://example.com/log)',
  'and',
  'retry.',
];

/** Rows in one turn of `turnRows`. */
export const ROWS_PER_TURN = 41;

/** One turn's rows, as the pipeline stores them for a streamed answer (30 deltas), a command with output, token usage. */
export function turnRows(threadId: string, turn: number): NewThreadEvent[] {
  const turnId = `turn-${turn}`;
  const scope = { kind: 'turn' as const, turnId };
  const row = (type: string, data: Record<string, unknown>) =>
    ({ threadId, type, turnId, scope, data: { providerThreadId: threadId, ...data } }) as unknown as NewThreadEvent;
  const messageId = `msg-${turn}`;
  const commandId = `cmd-${turn}`;
  const deltas = Array.from({ length: 30 }, (_, i) => `${WORDS[(turn + i) % WORDS.length]} `);
  const usage = { totalTokens: 100 * turn, inputTokens: 90 * turn, cachedInputTokens: 10 * turn, outputTokens: 10 * turn };
  return [
    row('turn/started', { origin: turn % 5 === 0 ? 'agent' : 'client' }),
    row('item/started', {
      item: {
        type: 'commandExecution',
        id: commandId,
        command: `npm test -- --grep case${turn}`,
        status: 'inProgress',
        aggregatedOutput: '',
      },
    }),
    row('item/commandExecution/outputDelta', { itemId: commandId, delta: `case${turn} ok\n` }),
    row('item/commandExecution/outputDelta', { itemId: commandId, delta: `case${turn} done\n` }),
    row('item/completed', {
      item: {
        type: 'commandExecution',
        id: commandId,
        command: `npm test -- --grep case${turn}`,
        status: 'completed',
        aggregatedOutput: `case${turn} ok\ncase${turn} done\n`,
        exitCode: 0,
      },
    }),
    row('item/started', { item: { type: 'agentMessage', id: messageId, text: '' } }),
    ...deltas.map((delta) => row('item/agentMessage/delta', { itemId: messageId, delta })),
    row('item/completed', { item: { type: 'agentMessage', id: messageId, text: deltas.join('') } }),
    row('thread/tokenUsage/updated', { tokenUsage: { total: usage, last: usage } }),
    row('thread/contextWindowUsage/updated', {
      contextWindowUsage: { usedTokens: 1000 + turn, modelContextWindow: 200_000, estimated: false },
    }),
    row('turn/completed', { status: 'completed', providerCheckpointId: turnId }),
  ];
}

/** A thread-scoped row that tops a thread up to an exact row count. */
function usageRow(threadId: string): NewThreadEvent {
  const usage = { totalTokens: 1, inputTokens: 1, cachedInputTokens: 0, outputTokens: 0 };
  return {
    threadId,
    type: 'thread/tokenUsage/updated',
    turnId: null,
    scope: { kind: 'thread' },
    data: { providerThreadId: threadId, tokenUsage: { total: usage, last: usage } },
  } as unknown as NewThreadEvent;
}

/**
 * Exactly `rows` rows of whole turns (topped up with thread-scoped rows), handed to `append` in batches of
 * `batchRows` as they are made, so a 100k-row thread is never all in memory. Resolves with the turn count.
 */
export async function appendRealisticThread(
  threadId: string,
  rows: number,
  append: (batch: NewThreadEvent[]) => Promise<unknown>,
  batchRows = 2_000,
): Promise<number> {
  let batch: NewThreadEvent[] = [];
  let made = 0;
  let turns = 0;
  const add = async (more: NewThreadEvent[]) => {
    batch.push(...more);
    made += more.length;
    if (batch.length >= batchRows) {
      await append(batch);
      batch = [];
    }
  };
  while (made + ROWS_PER_TURN <= rows) await add(turnRows(threadId, turns++));
  while (made < rows) await add([usageRow(threadId)]);
  if (batch.length > 0) await append(batch);
  return turns;
}
