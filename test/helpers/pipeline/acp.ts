import { acpPromptEndedFrame, acpPromptStartedFrame, acpUpdateFrame } from '../../../src/protocol/acpFrames';

/**
 * ACP frames as the ACP provider sends them, with updates shaped as claude-agent-acp 0.101 and codex-acp 2.6
 * sent them against the fake model servers (test/providers/acp/realAgentsOverAcp.test.ts).
 */
export const started = (threadId: string) => acpPromptStartedFrame(threadId);
export const ended = (threadId: string, stopReason = 'end_turn', usage?: unknown, error?: unknown) =>
  acpPromptEndedFrame(threadId, { stopReason, ...(usage === undefined ? {} : { usage }), ...(error === undefined ? {} : { error }) });
export const update = (threadId: string, sessionUpdate: string, fields: Record<string, unknown> = {}) =>
  acpUpdateFrame(threadId, { sessionUpdate, ...fields });

export const chunk = (threadId: string, text: string, messageId = 'msg_1') =>
  update(threadId, 'agent_message_chunk', { content: { type: 'text', text }, messageId });
export const usageUpdate = (threadId: string, used: number, size = 1_000_000) => update(threadId, 'usage_update', { used, size });
export const acpUsage = (input: number, output: number, cachedRead = 0) => ({
  inputTokens: input,
  outputTokens: output,
  cachedReadTokens: cachedRead,
  cachedWriteTokens: 0,
  totalTokens: input + output + cachedRead,
});

/** Claude's `Bash` call: announced pending with no input, its command in a later update, its output at the end. */
export function claudeCommand(threadId: string, id: string, command: string, output: string) {
  const meta = { claudeCode: { toolName: 'Bash' } };
  return [
    update(threadId, 'tool_call', {
      toolCallId: id,
      title: 'Terminal',
      kind: 'execute',
      status: 'pending',
      content: [],
      rawInput: {},
      _meta: meta,
    }),
    update(threadId, 'tool_call_update', { toolCallId: id, title: command, rawInput: { command }, _meta: meta }),
    update(threadId, 'tool_call_update', {
      toolCallId: id,
      content: [{ type: 'content', content: { type: 'text', text: 'Run the command' } }],
      rawInput: { command, description: 'Run the command' },
      _meta: meta,
    }),
    update(threadId, 'tool_call_update', {
      toolCallId: id,
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: '```console\n' + output + '\n```' } }],
      rawOutput: output,
      _meta: meta,
    }),
  ];
}

/** Codex's `exec_command`: announced in progress with its command, output streamed in `_meta`, the exit code at the end. */
export function codexCommand(threadId: string, id: string, command: string, outputs: string[], exitCode = 0) {
  return [
    update(threadId, 'tool_call', {
      toolCallId: id,
      title: command,
      kind: 'execute',
      status: 'in_progress',
      content: [{ type: 'terminal', terminalId: id }],
      rawInput: { command, cwd: '/work' },
    }),
    ...outputs.map((data) =>
      update(threadId, 'tool_call_update', { toolCallId: id, _meta: { terminal_output_delta: { data, terminal_id: id } } }),
    ),
    update(threadId, 'tool_call_update', {
      toolCallId: id,
      status: exitCode === 0 ? 'completed' : 'failed',
      _meta: { terminal_exit: { exit_code: exitCode, signal: null, terminal_id: id } },
    }),
  ];
}

/** The prompt request failed (the agent exited, refused it): the answer carries the error instead of a stopReason. */
export const acpPromptFailed = (threadId: string, message: string) => acpPromptEndedFrame(threadId, { error: { message } });
