/**
 * Builders for pi 0.73 SDK events and the frames that carry them, shaped like
 * @mariozechner/pi-agent-core's AgentEvent and pi-ai's AssistantMessage (types.d.ts).
 */
const TIMESTAMP = 1_763_800_000_000;

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
}

export function usage(input: number, output: number, cacheRead = 0, cacheWrite = 0): Usage {
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

export function userMessage(text: string) {
  return { role: 'user', content: [{ type: 'text', text }], timestamp: TIMESTAMP };
}

/** What an extension's `sendMessage({customType, content, display: true}, {triggerTurn: true})` injects. */
export function customMessage(content: string, customType = 'reminder') {
  return { role: 'custom', customType, content, display: true, timestamp: TIMESTAMP };
}

export function assistantMessage(text: string, options: { usage?: Usage; stopReason?: string; errorMessage?: string } = {}) {
  return {
    role: 'assistant',
    content: text === '' ? [] : [{ type: 'text', text }],
    api: 'openai-completions',
    provider: 'fake',
    model: 'fake-model',
    usage: options.usage ?? usage(0, 0),
    stopReason: options.stopReason ?? 'stop',
    ...(options.errorMessage === undefined ? {} : { errorMessage: options.errorMessage }),
    timestamp: TIMESTAMP,
  };
}

export const agentStart = () => ({ type: 'agent_start' });
export const agentEnd = (messages: unknown[], extra: Record<string, unknown> = {}) => ({ type: 'agent_end', messages, ...extra });
export const turnStart = () => ({ type: 'turn_start' });
export const turnEnd = (message: unknown) => ({ type: 'turn_end', message, toolResults: [] });
export const messageStart = (message: unknown) => ({ type: 'message_start', message });
export const messageEnd = (message: unknown) => ({ type: 'message_end', message });

/** A `text_delta` update; `partial` deliberately runs ahead of the deltas, as pi's snapshots can. */
export function textDelta(delta: string, partialText = `${delta}…(snapshot ahead)`) {
  const partial = assistantMessage(partialText);
  return {
    type: 'message_update',
    message: partial,
    assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta, partial },
  };
}

export function sdk(threadId: string, message: unknown) {
  return { jsonrpc: '2.0', method: 'sdk/message', params: { threadId, message } };
}
export function promptStarted(threadId: string, providerId = 'pi', prompt?: string) {
  return { jsonrpc: '2.0', method: `${providerId}/prompt/started`, params: prompt === undefined ? { threadId } : { threadId, prompt } };
}
export function promptSettled(threadId: string, error?: unknown, providerId = 'pi') {
  return { jsonrpc: '2.0', method: `${providerId}/prompt/settled`, params: error === undefined ? { threadId } : { threadId, error } };
}
export function stop(threadId: string) {
  return { jsonrpc: '2.0', method: 'thread/stop', params: { threadId } };
}

/** The SDK events of one streamed assistant reply, from message_start to message_end. */
export function streamedReply(threadId: string, deltas: string[], options: Parameters<typeof assistantMessage>[1] = {}) {
  const final = assistantMessage(deltas.join(''), options);
  return {
    frames: [
      sdk(threadId, messageStart(assistantMessage(''))),
      ...deltas.map((delta) => sdk(threadId, textDelta(delta))),
      sdk(threadId, messageEnd(final)),
    ],
    final,
  };
}

/** A whole client-started turn as the daemon sends it: prompt/started, the run, prompt/settled. */
export function clientTurn(threadId: string, prompt: string, deltas: string[], replyUsage = usage(120, 8)) {
  const user = userMessage(prompt);
  const reply = streamedReply(threadId, deltas, { usage: replyUsage });
  return [
    promptStarted(threadId),
    sdk(threadId, agentStart()),
    sdk(threadId, turnStart()),
    sdk(threadId, messageStart(user)),
    sdk(threadId, messageEnd(user)),
    ...reply.frames,
    sdk(threadId, turnEnd(reply.final)),
    sdk(threadId, agentEnd([user, reply.final])),
    promptSettled(threadId),
  ];
}

/** An agent-started turn: an extension injects a custom message with string content and triggers a run. */
export function agentStartedTurn(threadId: string, injected: string, deltas: string[], replyUsage = usage(200, 12, 64)) {
  const custom = customMessage(injected);
  const reply = streamedReply(threadId, deltas, { usage: replyUsage });
  return [
    sdk(threadId, agentStart()),
    sdk(threadId, turnStart()),
    sdk(threadId, messageStart(custom)),
    sdk(threadId, messageEnd(custom)),
    ...reply.frames,
    sdk(threadId, turnEnd(reply.final)),
    sdk(threadId, agentEnd([custom, reply.final])),
  ];
}

/** `tool_execution_*` as pi-agent-core emits them (see test/fixtures/recorded/client-*-tool*.jsonl). */
export function toolStart(toolCallId: string, toolName: string, args: unknown) {
  return { type: 'tool_execution_start', toolCallId, toolName, args };
}
/** A bash update: `text` is the output *so far*; `totalBytes` as pi adds it once it truncates. */
export function toolOutput(toolCallId: string, text: string, totalBytes?: number) {
  const details = totalBytes === undefined ? {} : { truncation: { truncated: true, totalBytes } };
  return {
    type: 'tool_execution_update',
    toolCallId,
    toolName: 'bash',
    args: {},
    partialResult: { content: [{ type: 'text', text }], details },
  };
}
export function toolEnd(toolCallId: string, toolName: string, text: string, options: { isError?: boolean; details?: unknown } = {}) {
  const result = { content: [{ type: 'text', text }], ...(options.details === undefined ? {} : { details: options.details }) };
  return { type: 'tool_execution_end', toolCallId, toolName, result, isError: options.isError ?? false };
}
