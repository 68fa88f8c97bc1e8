import type { AgentProvider, AgentThread, OpenThreadOptions } from '../../src/daemon/providers/agentProvider';
import { agentEnd, agentStart, assistantStart, sdk, textDelta } from './serverFrames';

/**
 * An AgentProvider that behaves like pi without a model: a prompt streams `reply` and ends the run, unless
 * the prompt is `hang`, which leaves the run streaming until stop() aborts it.
 */
export function fakeProvider(id = 'fake'): AgentProvider & { opened: OpenThreadOptions[] } {
  const opened: OpenThreadOptions[] = [];
  return {
    id,
    opened,
    async openThread(options): Promise<AgentThread> {
      opened.push(options);
      const { threadId, emit } = options;
      let running = false;
      return {
        providerThreadId: options.resumeProviderThreadId ?? `session-${threadId}`,
        async prompt(text) {
          running = true;
          emit({ jsonrpc: '2.0', method: `${id}/prompt/started`, params: { threadId } });
          emit(agentStart(threadId));
          emit(assistantStart(threadId));
          emit(textDelta(threadId, `echo: ${text}`));
          if (text === 'hang') return;
          emit(agentEnd(threadId, `echo: ${text}`));
          emit({ jsonrpc: '2.0', method: `${id}/prompt/settled`, params: { threadId } });
          running = false;
        },
        async stop() {
          if (!running) return;
          running = false;
          emit(sdk(threadId, { type: 'agent_end', messages: [{ role: 'assistant', content: [], stopReason: 'aborted', errorMessage: 'Request was aborted', timestamp: 2 }] }));
          emit({ jsonrpc: '2.0', method: `${id}/prompt/settled`, params: { threadId } });
        },
        async dispose() {},
      };
    },
  };
}
