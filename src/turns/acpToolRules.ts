import type { AcpUpdate } from '../protocol/acpFrames';
import {
  commandOf,
  contentTextOf,
  diffOf,
  exitCodeOf,
  finalOutputOf,
  outputDeltaOf,
  pathOf,
  toolCallIdOf,
  toolKindOf,
  toolStatusOf,
  toolTitleOf,
} from '../protocol/acpToolCalls';
import type { OpenToolItem, ToolOutcome, ToolSubject } from './turnState';
import type { TurnTransition } from './turnTransition';

/**
 * ACP `tool_call` and `tool_call_update` as the same items pi's tools give, by the call's `kind`: `execute` →
 * `commandExecution` (with output deltas), `edit` / `delete` / `move` → `fileChange` (with the diff), anything
 * else → `toolCall`. Both are insert-or-update by `toolCallId` (Gemini updates ids it never announced; Claude
 * goes `pending` → `completed` without `in_progress`). An `execute` call is shown once its command line is
 * known (Claude sends it in an update after the call) or once it runs, so `item/started` names the command.
 *
 * ```
 * tool_call(execute, pending)      ─▶ (held: no command yet)
 * update(rawInput.command)         ─▶ item/started {commandExecution, inProgress}
 * update(_meta output delta)*      ─▶ item/commandExecution/outputDelta
 * update(status: completed|failed) ─▶ item/completed {aggregatedOutput, exitCode?}
 * ```
 */
export function onAcpToolCall(t: TurnTransition, update: AcpUpdate, envelope: unknown): void {
  const id = toolCallIdOf(update);
  const previous = id === undefined ? undefined : t.state.tools.find((tool) => tool.id === id);
  // No id, or a call outside any turn (its turn already completed): kept as it came, never shown as an item.
  if (id === undefined || (!previous && !t.state.turn)) {
    return t.emit({ kind: 'unhandled', rawType: `acp/${update.sessionUpdate}`, rawEvent: envelope });
  }
  if (!previous) t.completeItem(); // the text before a tool call is an item of its own, as in pi
  const kind = toolKindOf(update) ?? previous?.acp?.kind ?? 'other';
  const subject = subjectOf(kind, update, previous);
  const status = toolStatusOf(update);
  const ends = status === 'completed' || status === 'failed';
  const announced = (previous?.acp?.announced ?? false) || isKnown(subject) || ends || status === 'in_progress';
  const diff = diffOf(update) ?? previous?.acp?.diff;
  let tool: OpenToolItem = {
    ...shown(subject, update),
    id,
    output: previous?.output ?? '',
    outputBytes: previous?.outputBytes ?? 0,
    acp: { kind, announced, ...(diff === undefined ? {} : { diff }) },
  };
  t.state.tools = previous ? t.state.tools.map((open) => (open.id === id ? tool : open)) : [...t.state.tools, tool];
  if (announced && previous?.acp?.announced !== true) t.emit({ kind: 'toolStarted', tool });
  if (tool.kind === 'commandExecution') tool = streamOutput(t, tool, outputDeltaOf(update));
  if (!ends) return;
  const outcome = outcomeOf(tool, update, status === 'failed' ? 'failed' : 'completed');
  if (tool.kind === 'commandExecution' && outcome.text.startsWith(tool.output))
    streamOutput(t, tool, outcome.text.slice(tool.output.length));
  t.state.tools = t.state.tools.filter((open) => open.id !== id);
  t.emit({ kind: 'toolCompleted', tool, outcome });
}

function subjectOf(kind: string, update: AcpUpdate, previous: OpenToolItem | undefined): ToolSubject {
  switch (kind) {
    case 'execute':
      return { kind: 'commandExecution', command: commandOf(update) ?? (previous?.kind === 'commandExecution' ? previous.command : '') };
    case 'edit':
    case 'delete':
    case 'move':
      return { kind: 'fileChange', tool: kind, path: pathOf(update) ?? (previous?.kind === 'fileChange' ? previous.path : '') };
    default: {
      const before = previous?.kind === 'toolCall' ? previous : undefined;
      const args = update['rawInput'] ?? before?.arguments;
      return { kind: 'toolCall', tool: toolTitleOf(update) ?? before?.tool ?? kind, arguments: args };
    }
  }
}

function isKnown(subject: ToolSubject): boolean {
  if (subject.kind === 'commandExecution') return subject.command !== '';
  if (subject.kind === 'fileChange') return subject.path !== '';
  return true;
}

/** A subject still unknown when the call must be shown (it ran or ended) is named by the call's title. */
function shown(subject: ToolSubject, update: AcpUpdate): ToolSubject {
  const title = toolTitleOf(update) ?? '';
  if (subject.kind === 'commandExecution' && subject.command === '') return { ...subject, command: title };
  if (subject.kind === 'fileChange' && subject.path === '') return { ...subject, path: title };
  return subject;
}

function streamOutput(t: TurnTransition, tool: OpenToolItem, delta: string | undefined): OpenToolItem {
  if (delta === undefined || delta === '') return tool;
  const next = { ...tool, output: tool.output + delta, outputBytes: tool.outputBytes + Buffer.byteLength(delta) };
  t.state.tools = t.state.tools.map((open) => (open.id === tool.id ? next : open));
  t.emit({ kind: 'toolOutputDelta', itemId: tool.id, delta });
  return next;
}

function outcomeOf(tool: OpenToolItem, update: AcpUpdate, status: 'completed' | 'failed'): ToolOutcome {
  switch (tool.kind) {
    case 'commandExecution': {
      const exitCode = exitCodeOf(update) ?? (status === 'completed' ? 0 : undefined);
      return { status, text: finalOutputOf(update) ?? tool.output, ...(exitCode === undefined ? {} : { exitCode }) };
    }
    case 'fileChange': {
      const diff = tool.acp?.diff;
      return { status, text: contentTextOf(update) ?? '', ...(diff === undefined ? {} : { diff }) };
    }
    case 'toolCall': {
      const result = update['rawOutput'] ?? update['content'];
      return { status, text: contentTextOf(update) ?? '', ...(result === undefined ? {} : { result }) };
    }
  }
}
