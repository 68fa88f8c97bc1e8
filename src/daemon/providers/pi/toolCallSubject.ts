import path from 'node:path';
import { homedir } from 'node:os';
import { diffOf } from '../../../protocol/acpToolCalls';
import type { ApprovalSubject } from '../../../protocol/approvals';

/** What pi's `tool_call` event says about a call (its `input` is the model's arguments, already validated). */
export interface PiToolCall {
  toolName: string;
  toolCallId: string;
  input: Record<string, unknown>;
}

/** The ACP tool kind of each pi built-in; extension tools are `other`. */
const KIND_OF_TOOL: Record<string, string> = {
  bash: 'execute',
  edit: 'edit',
  write: 'edit',
  read: 'read',
  ls: 'read',
  grep: 'search',
  find: 'search',
};

/**
 * A pi tool call as the approval card shows it: the command of a `bash` call, the absolute path and a diff of an
 * `edit` (its `oldText`/`newText` pairs) or a `write` (the new content), in the unified-style text ACP tool rows
 * use, so the page shows one diff format whatever the agent.
 */
export function toolCallSubject(call: PiToolCall, cwd: string): ApprovalSubject {
  const { toolName, toolCallId, input } = call;
  const kind = KIND_OF_TOOL[toolName] ?? 'other';
  const file = typeof input['path'] === 'string' ? resolveLikePi(input['path'], cwd) : undefined;
  const paths = file === undefined ? [] : [file];
  if (toolName === 'bash' && typeof input['command'] === 'string') {
    return { kind, title: input['command'], toolCallId, command: input['command'], paths };
  }
  if (toolName === 'edit' && file !== undefined) {
    const edits = Array.isArray(input['edits']) ? (input['edits'] as Array<Record<string, unknown>>) : [];
    const content = edits.map((edit) => ({ type: 'diff', path: file, oldText: edit['oldText'], newText: edit['newText'] }));
    return { kind, title: `Edit ${file}`, toolCallId, diff: diffOf({ sessionUpdate: 'tool_call', content }), paths };
  }
  if (toolName === 'write' && file !== undefined) {
    const content = [{ type: 'diff', path: file, newText: input['content'] }];
    return { kind, title: `Write ${file}`, toolCallId, diff: diffOf({ sessionUpdate: 'tool_call', content }), paths };
  }
  return { kind, title: file === undefined ? toolName : `${toolName} ${file}`, toolCallId, paths };
}

/** pi's own resolution of a tool's path (`resolveToCwd`: an `@` prefix dropped, `~` expanded, relative to cwd). */
function resolveLikePi(filePath: string, cwd: string): string {
  const bare = filePath.startsWith('@') ? filePath.slice(1) : filePath;
  const expanded = bare === '~' ? homedir() : bare.startsWith('~/') ? homedir() + bare.slice(1) : bare;
  return path.resolve(cwd, expanded);
}
