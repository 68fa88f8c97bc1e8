/** Minimal pi SDK frames for server tests: enough to open a turn, stream text and end it. */
export const sdk = (threadId: string, message: Record<string, unknown>, id?: number) => ({
  jsonrpc: '2.0' as const,
  method: 'sdk/message',
  params: { threadId, message },
  ...(id === undefined ? {} : { id }),
});

const assistant = (text: string) => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  api: 'fake',
  provider: 'fake',
  model: 'fake-model',
  usage: {
    input: 1,
    output: 2,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 3,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  },
  stopReason: 'stop',
  timestamp: 1763800000000,
});

export const agentStart = (threadId: string, id?: number) => sdk(threadId, { type: 'agent_start' }, id);
export const assistantStart = (threadId: string, id?: number) => sdk(threadId, { type: 'message_start', message: assistant('') }, id);
export const textDelta = (threadId: string, delta: string, id?: number) =>
  sdk(
    threadId,
    { type: 'message_update', message: assistant(delta), assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta } },
    id,
  );
export const agentEnd = (threadId: string, text: string, id?: number) =>
  sdk(threadId, { type: 'agent_end', messages: [{ role: 'user', content: 'hi', timestamp: 1 }, assistant(text)] }, id);
