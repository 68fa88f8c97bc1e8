import type { AgentProvider, AgentThread, OpenThreadOptions } from '../../../src/daemon/providers/agentProvider';
import { agentEnd, agentStart, assistantStart, sdk, textDelta } from '../server/frames';

export interface FakeProviderOptions {
  /** openThread finishes only once this resolves (a slow agent start: extensions loading, a hung one). */
  openGate?: Promise<void>;
  /** Runs a whole agent-started turn from inside openThread, as a pi extension that starts one in `session_start`. */
  runWhileOpening?: string;
  /**
   * A prompt is taken (its `prompt/started` sent, `prompt` resolved) but its run's first event waits for this: pi
   * between accepting a prompt and its run's `agent_start` (a slow preflight, a loaded machine).
   */
  runGate?: Promise<void>;
}

export type FakeProvider = AgentProvider & { opened: OpenThreadOptions[]; disposed: string[] };

/**
 * An AgentProvider that behaves like pi without a model: a prompt streams `reply` and ends the run, unless
 * the prompt is `hang`, which leaves the run streaming until stop() aborts it. `opened` lists every
 * openThread call as it starts; `disposed` the thread ids whose agent was disposed.
 */
export function fakeProvider(id = 'fake', options: FakeProviderOptions = {}): FakeProvider {
  const opened: OpenThreadOptions[] = [];
  const disposed: string[] = [];
  return {
    id,
    opened,
    disposed,
    async openThread(thread): Promise<AgentThread> {
      opened.push(thread);
      const { threadId, emit } = thread;
      if (options.runWhileOpening !== undefined) {
        emit(agentStart(threadId));
        emit(assistantStart(threadId));
        emit(textDelta(threadId, options.runWhileOpening));
        emit(agentEnd(threadId, options.runWhileOpening));
      }
      await options.openGate;
      let running = false;
      let closed = false;
      const run = (text: string) => {
        if (closed) return; // a closed agent's run never begins
        emit(agentStart(threadId));
        emit(assistantStart(threadId));
        emit(textDelta(threadId, `echo: ${text}`));
        if (text === 'hang') return;
        emit(agentEnd(threadId, `echo: ${text}`));
        emit({ jsonrpc: '2.0', method: `${id}/prompt/settled`, params: { threadId } });
        running = false;
      };
      return {
        providerThreadId: thread.resumeProviderThreadId ?? `session-${threadId}`,
        async prompt(text) {
          running = true;
          emit({ jsonrpc: '2.0', method: `${id}/prompt/started`, params: { threadId } });
          if (options.runGate) {
            const gate = options.runGate;
            options.runGate = undefined; // the first prompt only
            void gate.then(() => run(text));
            return;
          }
          run(text);
        },
        async stop() {
          if (!running) return;
          running = false;
          emit(
            sdk(threadId, {
              type: 'agent_end',
              messages: [{ role: 'assistant', content: [], stopReason: 'aborted', errorMessage: 'Request was aborted', timestamp: 2 }],
            }),
          );
          emit({ jsonrpc: '2.0', method: `${id}/prompt/settled`, params: { threadId } });
        },
        async dispose() {
          closed = true;
          disposed.push(threadId);
        },
      };
    },
  };
}
