import { THREAD_EVENT_TYPE, TokenCountsSchema, TurnOriginSchema } from '../protocol/threadEvents';
import type { StoredThreadEvent } from '../store/eventStore';
import { INITIAL_TURN_STATE, type ThreadTurnState } from './turnState';

/**
 * Rebuilds a thread's turn state from its stored rows (in seq order) after a restart, so an open turn keeps
 * its id and its streamed item keeps growing. What rows cannot tell is documented in docs/events.md: prompt
 * bookkeeping restarts empty (settles then follow E5 literally), and a retried run counts as streaming once
 * its first item appears.
 */
export function restoreTurnState(rows: readonly StoredThreadEvent[]): ThreadTurnState {
  let state: ThreadTurnState = { ...INITIAL_TURN_STATE };
  for (const row of rows) state = applyRow(state, row);
  return state;
}

function applyRow(state: ThreadTurnState, row: StoredThreadEvent): ThreadTurnState {
  const data = row.data as Record<string, any>;
  const { turn, item } = state;
  switch (row.type) {
    case THREAD_EVENT_TYPE.turnStarted:
      return {
        ...state,
        item: null,
        turn: {
          id: row.turnId ?? '',
          origin: TurnOriginSchema.catch('agent').parse(data['origin']),
          runActive: true,
          retryPending: false,
          promptsOutstanding: 0,
          settled: false,
          stopRequested: false,
        },
      };
    case THREAD_EVENT_TYPE.turnCompleted:
      return { ...state, turn: null, item: null };
    case THREAD_EVENT_TYPE.itemStarted:
      return {
        ...state,
        turn: turn && { ...turn, runActive: true, retryPending: false },
        item: { id: String(data['item']?.id), text: '', completed: false },
      };
    case THREAD_EVENT_TYPE.itemDelta:
      return item && item.id === data['itemId'] ? { ...state, item: { ...item, text: item.text + String(data['delta']) } } : state;
    case THREAD_EVENT_TYPE.itemCompleted:
      return item && item.id === data['item']?.id ? { ...state, item: { ...item, completed: true } } : state;
    case THREAD_EVENT_TYPE.tokenUsage: {
      const total = TokenCountsSchema.safeParse(data['tokenUsage']?.total);
      return total.success ? { ...state, totals: total.data } : state;
    }
    case THREAD_EVENT_TYPE.providerUnhandled:
      return data['rawType'] === 'sdk/agent_end' && turn ? { ...state, turn: { ...turn, runActive: false } } : state;
    case THREAD_EVENT_TYPE.providerError:
      return data['willRetry'] === true && turn
        ? { ...state, turn: { ...turn, runActive: false, retryPending: true, retryError: String(data['message']) } }
        : state;
    default:
      return state;
  }
}
