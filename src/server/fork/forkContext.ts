import { THREAD_EVENT_TYPE, type ThreadItem } from '../../protocol/threadEvents';
import type { StoredThreadEvent } from '../../store/eventStore';

/** The most of a fork's earlier conversation its first prompt carries; the oldest part goes first past it. */
export const FORK_CONTEXT_MAX_CHARS = 100_000;

export const FORK_CONTEXT_HEADING = 'Earlier conversation (this thread is a fork of another; continue from here):';
export const FORK_CONTEXT_END = 'End of the earlier conversation. The new message:';

/**
 * What an agent that starts a fork in a fresh session is told first (docs/fork.md): the earlier conversation
 * as plain text, one block per message or tool call, from the copied rows' completed items, so any agent
 * reads it without a tool (as review comments are sent). Null when there was nothing before the fork.
 */
export function forkContextOf(rows: readonly StoredThreadEvent[]): string | null {
  const blocks: string[] = [];
  for (const row of rows) {
    if (row.type !== THREAD_EVENT_TYPE.itemCompleted) continue;
    const block = blockOf(row.data.item);
    if (block) blocks.push(block);
  }
  if (blocks.length === 0) return null;
  let body = blocks.join('\n\n');
  if (body.length > FORK_CONTEXT_MAX_CHARS) body = `[…earlier part left out…]\n${body.slice(-FORK_CONTEXT_MAX_CHARS)}`;
  return `${FORK_CONTEXT_HEADING}\n\n${body}\n\n${FORK_CONTEXT_END}\n\n`;
}

function blockOf(item: ThreadItem): string | null {
  switch (item.type) {
    case 'userMessage': {
      const text = item.content.map((part) => (part.type === 'text' ? part.text : '[image]')).join('\n');
      return `User:\n${text}`;
    }
    case 'agentMessage':
      return item.text ? `Assistant:\n${item.text}` : null;
    case 'commandExecution':
      return `Assistant ran \`${item.command}\`${item.exitCode === undefined ? '' : ` (exit code ${item.exitCode})`}`;
    case 'fileChange':
      return `Assistant used ${item.tool} on ${item.path}${item.status === 'failed' ? ' (failed)' : ''}`;
    case 'toolCall':
      return `Assistant used the tool ${item.tool}`;
    default:
      return null;
  }
}
