import { acpUpdateFrame } from '../../../protocol/acpFrames';
import type { PermissionMode } from '../../../protocol/approvals';
import type { AcpThreadOptions } from './acpThreadOptions';
import type { LiveAcpSession } from './acpSessionOps';
import type { AcpAgentProcess } from './spawnAcpAgent';
import { startAgentSession } from './startAgentSession';

export interface AcpAgentHolderHooks {
  emit(frame: unknown): void;
  /** The prompt's answer, after every update that came before it on the wire. */
  promptAnswered(answer: { stopReason?: string; usage?: unknown; error?: unknown }): void;
  permissionMode(): PermissionMode;
  questionSignal(): AbortSignal;
  /** True once the thread is closed: an agent gone then is not news. */
  disposed(): boolean;
}

/**
 * The process and session of one thread's ACP agent, kept across restarts: the session id (resumed by each new
 * start), the modes and delete capability the last start reported, the context window. An agent that is gone
 * (exited, closed, or its connection died) is dropped at once, so the next prompt starts a fresh one.
 */
export function createAcpAgentHolder(options: AcpThreadOptions, hooks: AcpAgentHolderHooks) {
  const { threadId } = options;
  const live: LiveAcpSession = { agent: undefined, sessionId: options.resumeSessionId, modes: undefined, canDelete: false };
  let replaying = false;
  let contextWindow: number | undefined;
  /** The id of the agent message the running prompt streamed last (ACP `messageId`). */
  let lastMessageId: string | undefined;
  /**
   * The last agent message of the prompt just answered, the turn's `providerCheckpointId`: where a fork continues
   * the session (`session/fork` at that message, forkAcpSession.ts). Taken when the prompt ends and dropped when
   * the next starts, so a turn closed before its prompt's answer (a stop the agent ignored) names no message of
   * the turn before, and one prompt's messages never stand for another's.
   */
  let checkpoint: string | undefined;

  const start = async (signal: AbortSignal | undefined): Promise<AcpAgentProcess> => {
    const started = await startAgentSession(
      options,
      live.sessionId,
      {
        update(update) {
          if (replaying) return;
          if (update['sessionUpdate'] === 'usage_update' && typeof update['size'] === 'number') contextWindow = update['size'];
          lastMessageId = agentMessageIdOf(update) ?? lastMessageId;
          hooks.emit(acpUpdateFrame(threadId, update));
        },
        promptAnswered: hooks.promptAnswered,
        replaying: (on) => (replaying = on),
        lost(process, why) {
          if (live.agent === process) live.agent = undefined; // the next prompt starts it again
          if (!hooks.disposed()) options.log(`${options.name} agent of thread ${threadId} is gone: ${why}`);
        },
        permissionMode: hooks.permissionMode,
        questionSignal: hooks.questionSignal,
      },
      signal,
    );
    ({ sessionId: live.sessionId, modes: live.modes, canDelete: live.canDelete } = started);
    live.agent = started.agent;
    return started.agent;
  };

  return {
    live,
    start,
    /** The running agent, else one started now (on the same session where it can resume). */
    running: async (signal: AbortSignal): Promise<AcpAgentProcess> => live.agent ?? start(signal),
    /** What a loaded session's agent sent before the first prompt is its replayed history (openAcpSession.ts). */
    historyReplayed: () => (replaying = false),
    contextWindow: () => contextWindow,
    /** A prompt's checkpoint is a message of its own run: the one before is forgotten when it starts. */
    promptStarting: () => (lastMessageId = checkpoint = undefined),
    promptEnded: () => (checkpoint = lastMessageId),
    checkpointId: () => checkpoint,
    async close(): Promise<void> {
      await live.agent?.close();
      live.agent = undefined;
    },
  };
}

/**
 * The agent's id of the message an `agent_message_chunk` belongs to (ACP's `messageId`: Claude's adapter sends
 * the Anthropic message id, codex-acp its item id); none for a chunk without one (Claude's notices).
 */
function agentMessageIdOf(update: Record<string, unknown>): string | undefined {
  const id = update['messageId'];
  return update['sessionUpdate'] === 'agent_message_chunk' && typeof id === 'string' && id !== '' ? id : undefined;
}
