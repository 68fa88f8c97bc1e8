import { THREAD_EVENT_TYPE, TokenCountsSchema, TurnOriginSchema } from '../protocol/threadEvents';
import type { StoredThreadEvent } from '../store/eventStore';
import { INITIAL_TURN_STATE, type OpenToolItem, type ThreadTurnState, type ToolSubject } from './turnState';

/**
 * Rebuilds a thread's turn state from its stored rows (in seq order). The ingest hands it to the turn rules
 * as a `restored` input, which closes a turn whose run belonged to an earlier process (`onRestored`); a turn
 * of this process (read again after a failed append) keeps its id and its streamed item keeps growing. What
 * rows cannot tell is documented in docs/events.md: prompt
 * bookkeeping restarts empty (settles then follow E5 literally), a retried run counts as streaming once
 * its first item appears, and a running command's output is what its deltas added (see commandOutput.ts).
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
      // Tools running outside any turn keep running into it, as in the live rules (turnTransition.openTurn).
      return {
        ...state,
        item: null,
        pendingApprovalIds: [], // questions never outlive a turn boundary (turnTransition.ts)
        turn: {
          id: row.turnId ?? '',
          origin: TurnOriginSchema.catch('agent').parse(data['origin']),
          runActive: true,
          retryPending: false,
          promptsOutstanding: 0,
          settled: false,
          stopRequested: false,
          closesAfterGrace: false,
          ...(typeof data['processEpoch'] === 'string' ? { processEpoch: data['processEpoch'] } : {}),
        },
      };
    case THREAD_EVENT_TYPE.turnCompleted:
      return { ...state, turn: null, item: null, tools: [], pendingApprovalIds: [] };
    case THREAD_EVENT_TYPE.itemStarted: {
      // What the user sent is complete when stored: it opens nothing that later rows could continue.
      if (data['item']?.type === 'userMessage') return state;
      const running = { ...state, turn: turn && { ...turn, runActive: true, retryPending: false } };
      const tool = openToolOf(data['item']);
      if (tool) return { ...running, tools: [...state.tools, tool] };
      const id = String(data['item']?.id);
      const reasoning = data['item']?.type === 'reasoning';
      return { ...running, item: reasoning ? { id, text: '', completed: false, reasoning } : { id, text: '', completed: false } };
    }
    case THREAD_EVENT_TYPE.itemDelta:
    case THREAD_EVENT_TYPE.reasoningDelta:
      return item && item.id === data['itemId'] ? { ...state, item: { ...item, text: item.text + String(data['delta']) } } : state;
    case THREAD_EVENT_TYPE.commandOutputDelta: {
      const delta = String(data['delta']);
      const grow = (tool: OpenToolItem) => ({
        ...tool,
        output: tool.output + delta,
        outputBytes: tool.outputBytes + Buffer.byteLength(delta),
      });
      return { ...state, tools: state.tools.map((tool) => (tool.id === data['itemId'] ? grow(tool) : tool)) };
    }
    case THREAD_EVENT_TYPE.itemCompleted:
      if (state.tools.some((tool) => tool.id === data['item']?.id))
        return { ...state, tools: state.tools.filter((tool) => tool.id !== data['item']?.id) };
      return item && item.id === data['item']?.id ? { ...state, item: { ...item, completed: true } } : state;
    case THREAD_EVENT_TYPE.approvalRequested:
      return { ...state, pendingApprovalIds: [...state.pendingApprovalIds, String(data['approvalId'])] };
    case THREAD_EVENT_TYPE.approvalResolved:
      return { ...state, pendingApprovalIds: state.pendingApprovalIds.filter((id) => id !== data['approvalId']) };
    case THREAD_EVENT_TYPE.tokenUsage: {
      const total = TokenCountsSchema.safeParse(data['tokenUsage']?.total);
      return total.success ? { ...state, totals: total.data } : state;
    }
    case THREAD_EVENT_TYPE.contextWindowUsage: {
      const used = data['contextWindowUsage']?.usedTokens;
      return typeof used === 'number' && Number.isFinite(used) ? { ...state, contextTokens: used } : state;
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

/** The tool item an `item/started` row opened; undefined for an agent message. */
function openToolOf(item: Record<string, any> | undefined): OpenToolItem | undefined {
  const subject = subjectOfRow(item);
  return subject && { ...subject, id: String(item?.['id']), output: '', outputBytes: 0 };
}

function subjectOfRow(item: Record<string, any> | undefined): ToolSubject | undefined {
  switch (item?.['type']) {
    case 'commandExecution':
      return { kind: 'commandExecution', command: String(item['command']) };
    case 'fileChange':
      return { kind: 'fileChange', tool: String(item['tool']), path: String(item['path']) };
    case 'toolCall':
      return { kind: 'toolCall', tool: String(item['tool']), arguments: item['arguments'] };
    default:
      return undefined;
  }
}
