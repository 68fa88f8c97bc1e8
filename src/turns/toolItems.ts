import type { FileChangeItem, ItemStatus, ThreadItem } from '../protocol/threadEvents';
import type { OpenToolItem, ToolOutcome } from './turnState';

/**
 * The `item` of a tool's `item/started` (no outcome yet: `inProgress`) or `item/completed` row, in the
 * shapes of `ThreadItemSchema` (docs/events.md). Optional fields are left out rather than set to undefined,
 * so stored rows show exactly what is known.
 */
export function toolItemOf(tool: OpenToolItem, outcome?: ToolOutcome): ThreadItem {
  const status: ItemStatus = outcome?.status ?? 'inProgress';
  switch (tool.kind) {
    case 'commandExecution': {
      const item = { type: tool.kind, id: tool.id, command: tool.command, status, aggregatedOutput: outcome?.text ?? '' };
      return outcome?.exitCode === undefined ? item : { ...item, exitCode: outcome.exitCode };
    }
    case 'fileChange': {
      const item: FileChangeItem = { type: tool.kind, id: tool.id, tool: tool.tool, path: tool.path, status };
      if (outcome?.diff !== undefined) item.diff = outcome.diff;
      if (outcome?.status === 'failed' && outcome.text !== '') item.error = outcome.text;
      return item;
    }
    case 'toolCall': {
      const item = { type: tool.kind, id: tool.id, tool: tool.tool, arguments: tool.arguments ?? null, status };
      return outcome?.result === undefined ? item : { ...item, result: outcome.result };
    }
  }
}
