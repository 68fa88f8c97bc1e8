import type { AcpUpdate } from './acpFrames';

/**
 * Lenient readers of an ACP `tool_call` / `tool_call_update` (ACP v1 `ToolCall`, `ToolCallUpdate`): every field
 * but `toolCallId` is optional in an update, and agents put what a UI needs in different places (Claude sends a
 * command's line in a later update's `rawInput`, Codex streams output in `_meta.terminal_output_delta`). A
 * field of the wrong type reads as absent; nothing here throws.
 */

export function toolCallIdOf(update: AcpUpdate): string | undefined {
  return nonEmptyString(update['toolCallId']);
}

/** ACP `ToolKind`: `read`, `edit`, `delete`, `move`, `search`, `execute`, `think`, `fetch`, `switch_mode`, `other`. */
export function toolKindOf(update: AcpUpdate): string | undefined {
  return nonEmptyString(update['kind']);
}

/** `pending`, `in_progress`, `completed` or `failed`. */
export function toolStatusOf(update: AcpUpdate): string | undefined {
  return nonEmptyString(update['status']);
}

export function toolTitleOf(update: AcpUpdate): string | undefined {
  return nonEmptyString(update['title']);
}

/** The command line of an `execute` call: `rawInput.command` as a string, or an argv joined by spaces. */
export function commandOf(update: AcpUpdate): string | undefined {
  const command = recordOf(update['rawInput'])?.['command'] ?? recordOf(update['rawInput'])?.['cmd'];
  if (typeof command === 'string') return nonEmptyString(command);
  if (Array.isArray(command) && command.every((part) => typeof part === 'string')) return nonEmptyString(command.join(' '));
  return undefined;
}

/** The file an edit, delete or move is about: its first location, a diff's path, or the usual argument names. */
export function pathOf(update: AcpUpdate): string | undefined {
  const location = Array.isArray(update['locations']) ? recordOf(update['locations'][0]) : undefined;
  const diff = contentBlocksOf(update).find((block) => block['type'] === 'diff');
  const input = recordOf(update['rawInput']);
  return (
    nonEmptyString(location?.['path']) ??
    nonEmptyString(diff?.['path']) ??
    nonEmptyString(input?.['file_path']) ??
    nonEmptyString(input?.['path']) ??
    nonEmptyString(input?.['abs_path'])
  );
}

/**
 * The `diff` content blocks as one unified-style text (`--- path`, `+++ path`, then the old lines as `-` and the
 * new as `+`): ACP carries the whole old and new text, not hunks. Undefined when the update has no diff.
 */
export function diffOf(update: AcpUpdate): string | undefined {
  const diffs = contentBlocksOf(update).filter((block) => block['type'] === 'diff' && typeof block['newText'] === 'string');
  if (diffs.length === 0) return undefined;
  return diffs
    .map((block) => {
      const path = typeof block['path'] === 'string' ? block['path'] : '';
      const oldText = typeof block['oldText'] === 'string' ? block['oldText'] : undefined;
      const lines = (text: string, sign: string) =>
        text === ''
          ? []
          : text
              .replace(/\n$/, '')
              .split('\n')
              .map((line) => sign + line);
      return [
        `--- ${oldText === undefined ? '/dev/null' : path}`,
        `+++ ${path}`,
        ...lines(oldText ?? '', '-'),
        ...lines(block['newText'] as string, '+'),
      ].join('\n');
    })
    .join('\n');
}

/** Output a command produced since the last update, where the agent streams it (Codex: `_meta.terminal_output_delta`). */
export function outputDeltaOf(update: AcpUpdate): string | undefined {
  const data = recordOf(recordOf(update['_meta'])?.['terminal_output_delta'])?.['data'];
  return typeof data === 'string' && data !== '' ? data : undefined;
}

/** A command's exit code where the agent reports one (Codex: `_meta.terminal_exit.exit_code`). */
export function exitCodeOf(update: AcpUpdate): number | undefined {
  const code = recordOf(recordOf(update['_meta'])?.['terminal_exit'])?.['exit_code'];
  return typeof code === 'number' && Number.isInteger(code) ? code : undefined;
}

/** The tool's whole output, when an update carries it: `rawOutput` as text, else its text content blocks. */
export function finalOutputOf(update: AcpUpdate): string | undefined {
  const raw = update['rawOutput'];
  if (typeof raw === 'string') return raw;
  const fields = recordOf(raw);
  for (const key of ['output', 'stdout', 'formatted_output', 'aggregated_output']) {
    if (typeof fields?.[key] === 'string') return fields[key] as string;
  }
  return contentTextOf(update);
}

/** The text of the update's `content` blocks (`{type: "content", content: {type: "text", text}}`), joined. */
export function contentTextOf(update: AcpUpdate): string | undefined {
  const texts = contentBlocksOf(update).flatMap((block) => {
    const inner = recordOf(block['content']);
    return block['type'] === 'content' && inner?.['type'] === 'text' && typeof inner['text'] === 'string' ? [inner['text']] : [];
  });
  return texts.length === 0 ? undefined : texts.join('\n');
}

/** The text of a chunk update's `content` (`agent_message_chunk`, `agent_thought_chunk`); undefined for other blocks. */
export function chunkTextOf(update: AcpUpdate): string | undefined {
  const content = recordOf(update['content']);
  return content?.['type'] === 'text' && typeof content['text'] === 'string' ? content['text'] : undefined;
}

function contentBlocksOf(update: AcpUpdate): Array<Record<string, unknown>> {
  const content = update['content'];
  if (!Array.isArray(content)) return [];
  return content.flatMap((block: unknown) => {
    const fields = recordOf(block);
    return fields ? [fields] : [];
  });
}

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
