import type { AcpEvent, AcpUpdate } from '../protocol/acpFrames';
import { chunkTextOf } from '../protocol/acpToolCalls';
import { planOf } from './acpPlan';
import { onAcpPromptEnded, onAcpPromptStarted } from './acpPromptRules';
import { onAcpToolCall } from './acpToolRules';
import type { TurnTransition } from './turnTransition';

/**
 * ACP updates that need no thread event: the session's title, mode, commands and config, which agents send
 * outside turns too (after `session/new`, after a prompt's answer). Anything not listed and not handled below
 * is kept as `provider/unhandled`, and never ends the stream.
 */
export const SILENT_ACP_UPDATES: ReadonlySet<string> = new Set([
  'available_commands_update',
  'current_mode_update',
  'config_option_update',
  'session_info_update',
  // What the user sent, echoed by some agents; the prompt itself is the turn's input.
  'user_message_chunk',
]);

/**
 * The turn rules for an ACP agent's frames (acpFrames.ts), beside pi's `sdk/message` rules in turnRules.ts.
 *
 * ```
 * agent_message_chunk* ─▶ item/started {agentMessage}, item/agentMessage/delta*   (one item per messageId)
 * agent_thought_chunk* ─▶ item/started {reasoning}, item/reasoning/delta*        (completed by what follows)
 * plan {entries}       ─▶ turn/plan/updated {plan}                               (the whole plan each time)
 * tool_call(_update)   ─▶ tool items (acpToolRules.ts) · usage_update ─▶ thread/contextWindowUsage/updated
 * ```
 */
export function onAcpEvent(t: TurnTransition, event: AcpEvent, envelope: unknown): void {
  switch (event.type) {
    case 'promptStarted':
      return onAcpPromptStarted(t, event.prompt);
    case 'promptEnded':
      return onAcpPromptEnded(t, event, envelope);
    case 'update':
      return onAcpUpdate(t, event.update, envelope);
  }
}

/**
 * Gemini CLI (0.61) reports a change of its approval mode as a message chunk `[MODE_UPDATE] <mode>` (after
 * `session/set_mode`, or its own switch to `plan`), not as `current_mode_update`: a mode report, no words of the
 * agent.
 */
const GEMINI_MODE_REPORT = /^\[MODE_UPDATE\] \S+$/;

function onAcpUpdate(t: TurnTransition, update: AcpUpdate, envelope: unknown): void {
  if (update.sessionUpdate === 'agent_message_chunk' && GEMINI_MODE_REPORT.test(chunkTextOf(update) ?? '')) return;
  // Reasoning is part of a turn's run: outside any turn (after its answer, an orphaned run) it is not kept.
  if (!t.state.turn && update.sessionUpdate === 'agent_thought_chunk') return;
  // An update of a prompt whose turn was closed without its answer (grace, restart) stays outside that turn.
  if (!t.state.turn && t.state.orphanRun && !SILENT_ACP_UPDATES.has(update.sessionUpdate)) {
    return t.emit({ kind: 'unhandled', rawType: `acp/${update.sessionUpdate}`, rawEvent: envelope });
  }
  switch (update.sessionUpdate) {
    case 'agent_message_chunk':
    case 'agent_thought_chunk': {
      const text = chunkTextOf(update);
      const reasoning = update.sessionUpdate === 'agent_thought_chunk';
      if (text !== undefined) return text === '' ? undefined : onTextChunk(t, text, update['messageId'], reasoning);
      break; // an image or resource block: kept below
    }
    case 'plan': {
      const plan = planOf(update);
      if (plan) return t.emit({ kind: 'planUpdated', plan });
      break;
    }
    case 'tool_call':
    case 'tool_call_update':
      return onAcpToolCall(t, update, envelope);
    case 'usage_update':
      return onUsageUpdate(t, update, envelope);
    default:
      if (SILENT_ACP_UPDATES.has(update.sessionUpdate)) return;
  }
  t.emit({ kind: 'unhandled', rawType: `acp/${update.sessionUpdate}`, rawEvent: envelope });
}

/** `usage_update {used, size}`: the context in use now (the provider reports `size` as the model's window). */
function onUsageUpdate(t: TurnTransition, update: AcpUpdate, envelope: unknown): void {
  const used = update['used'];
  if (typeof used !== 'number' || !Number.isFinite(used) || used < 0) {
    return t.emit({ kind: 'unhandled', rawType: 'acp/usage_update', rawEvent: envelope });
  }
  t.emit({ kind: 'contextWindowUsage', usedTokens: Math.round(used), estimated: false });
}

/**
 * Chunks of one agent message are one item; a chunk of another message starts the next: its `messageId`
 * differs, or only one of the two has one (Claude's notices come without an id between its messages).
 * Thought chunks make `reasoning` items the same way; a message chunk after thoughts completes them, and back.
 */
function onTextChunk(t: TurnTransition, text: string, messageId: unknown, reasoning: boolean): void {
  const id = typeof messageId === 'string' && messageId !== '' ? messageId : undefined;
  const item = t.state.item;
  if (item && !item.completed && item.messageId !== id) t.completeItem();
  if (reasoning) t.appendReasoning(text);
  else t.appendText(text);
  if (id !== undefined) t.state.item!.messageId = id;
}
