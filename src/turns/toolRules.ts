import {
  messageTextOf,
  ToolExecutionEndSchema,
  ToolExecutionStartSchema,
  ToolExecutionUpdateSchema,
  ToolResultSchema,
  type SdkEvent,
} from '../protocol/sdkEvents';
import { nextOutput, outputSnapshotOf } from './commandOutput';
import type { OpenToolItem, ToolOutcome, ToolSubject } from './turnState';
import type { TurnTransition } from './turnTransition';

/**
 * `tool_execution_*` as items a UI can show, Codex-style: `bash` → `commandExecution` (with output deltas),
 * `edit`/`write` → `fileChange`, anything else → `toolCall`. The item id is pi's `toolCallId`. Payloads are
 * read leniently; only an event without a `toolCallId` is unusable (`provider/unhandled`).
 *
 * ```
 * start(bash) ─▶ item/started {commandExecution, inProgress}
 * update*     ─▶ item/commandExecution/outputDelta (what each output snapshot adds)
 * end         ─▶ item/completed {status: completed | failed, aggregatedOutput, exitCode?}
 * ```
 */

export function onToolStart(t: TurnTransition, event: SdkEvent, envelope: unknown): void {
  const parsed = ToolExecutionStartSchema.safeParse(event);
  if (!parsed.success) return t.emit({ kind: 'unhandled', rawType: `sdk/${event.type}`, rawEvent: envelope });
  const { toolCallId, toolName, args } = parsed.data;
  if (openTool(t, toolCallId)) return; // a repeated start names the item already shown
  startTool(t, { ...subjectOf(toolName, args), id: toolCallId, output: '', outputBytes: 0 });
}

/** Only bash output is streamed; pi's built-in edit/write/read send no updates. */
export function onToolUpdate(t: TurnTransition, event: SdkEvent, envelope: unknown): void {
  const parsed = ToolExecutionUpdateSchema.safeParse(event);
  if (!parsed.success) return t.emit({ kind: 'unhandled', rawType: `sdk/${event.type}`, rawEvent: envelope });
  const tool = openTool(t, parsed.data.toolCallId);
  const snapshot = tool?.kind === 'commandExecution' ? outputSnapshotOf(parsed.data.partialResult) : undefined;
  if (!tool || !snapshot) return;
  const { delta, output, outputBytes } = nextOutput(tool, snapshot);
  replaceTool(t, { ...tool, output, outputBytes });
  if (delta !== '') t.emit({ kind: 'toolOutputDelta', itemId: tool.id, delta });
}

export function onToolEnd(t: TurnTransition, event: SdkEvent, envelope: unknown): void {
  const parsed = ToolExecutionEndSchema.safeParse(event);
  if (!parsed.success) return t.emit({ kind: 'unhandled', rawType: `sdk/${event.type}`, rawEvent: envelope });
  const { toolCallId, toolName, result, isError } = parsed.data;
  let tool = openTool(t, toolCallId);
  if (!tool) {
    // No turn: the late end of an item its turn already completed. In a turn: its start was lost, so the
    // user still sees the tool (like a final text that was never streamed).
    if (!t.state.turn) return;
    tool = startTool(t, { ...subjectOf(toolName, undefined), id: toolCallId, output: '', outputBytes: 0 });
  }
  t.state.tools = t.state.tools.filter((open) => open.id !== toolCallId);
  t.emit({ kind: 'toolCompleted', tool, outcome: outcomeOf(tool, result, isError === true) });
}

/** What the item shows, from the tool's name and arguments; arguments a kind cannot read make a `toolCall`. */
export function subjectOf(toolName: string, args: unknown): ToolSubject {
  const fields = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  if (toolName === 'bash' && typeof fields['command'] === 'string') return { kind: 'commandExecution', command: fields['command'] };
  if ((toolName === 'edit' || toolName === 'write') && typeof fields['path'] === 'string') {
    return { kind: 'fileChange', tool: toolName, path: fields['path'] };
  }
  return { kind: 'toolCall', tool: toolName, arguments: args };
}

/** pi's bash tool fails with "…Command exited with code N" as the last line; success means exit code 0. */
const EXIT_CODE_LINE = /Command exited with code (-?\d+)\s*$/;

function outcomeOf(tool: OpenToolItem, result: unknown, isError: boolean): ToolOutcome {
  const parsed = ToolResultSchema.safeParse(result);
  const text = parsed.success ? messageTextOf(parsed.data.content) : '';
  const status = isError ? 'failed' : 'completed';
  switch (tool.kind) {
    case 'commandExecution': {
      const exitCode = isError ? EXIT_CODE_LINE.exec(text)?.[1] : '0';
      return {
        status,
        text: parsed.success && parsed.data.content !== undefined ? text : tool.output,
        ...(exitCode === undefined ? {} : { exitCode: Number(exitCode) }),
      };
    }
    case 'fileChange': {
      const diff = parsed.success ? (parsed.data.details as { diff?: unknown } | null | undefined)?.diff : undefined;
      return { status, text, ...(typeof diff === 'string' ? { diff } : {}) };
    }
    case 'toolCall':
      return { status, text, ...(result === undefined ? {} : { result }) };
  }
}

function openTool(t: TurnTransition, id: string): OpenToolItem | undefined {
  return t.state.tools.find((tool) => tool.id === id);
}

function startTool(t: TurnTransition, tool: OpenToolItem): OpenToolItem {
  t.state.tools = [...t.state.tools, tool];
  t.emit({ kind: 'toolStarted', tool });
  return tool;
}

function replaceTool(t: TurnTransition, tool: OpenToolItem): void {
  t.state.tools = t.state.tools.map((open) => (open.id === tool.id ? tool : open));
}
