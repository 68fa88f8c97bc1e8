import type { AgentProvider, AgentThread, OpenThreadOptions } from '../../../src/daemon/providers/agentProvider';
import type { ApprovalDecision, ApprovalOption, ApprovalQuestion, PermissionMode } from '../../../src/protocol/approvals';
import { agentEnd, agentStart, assistantStart, sdk, textDelta } from '../server/frames';

/** The options every question offers, named as Claude Code names them (a decision is read from the kind). */
export const ASKING_OPTIONS: ApprovalOption[] = [
  { optionId: 'allow-once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

export type AskingProvider = AgentProvider & {
  opened: OpenThreadOptions[];
  /** What each question got, in the order the answers came: threadId and the decision. */
  decisions: { threadId: string; decision: ApprovalDecision }[];
  /** Every `setPermissionMode` call: threadId and mode. */
  modes: { threadId: string; mode: PermissionMode }[];
};

/**
 * An AgentProvider whose every prompt asks one question before it answers, as an agent asks before a tool
 * call runs: `edit <path>` asks to edit that file (kind `edit`), anything else asks to run the prompt as a
 * command (kind `execute`). The turn ends once the question is answered, its text naming the option's kind;
 * a cancelled question (a stop) leaves the run to the stop, which ends it aborted.
 */
export function askingProvider(id = 'asking'): AskingProvider {
  const opened: OpenThreadOptions[] = [];
  const decisions: AskingProvider['decisions'] = [];
  const modes: AskingProvider['modes'] = [];
  return {
    id,
    opened,
    decisions,
    modes,
    async openThread(thread): Promise<AgentThread> {
      opened.push(thread);
      const { threadId, emit, askUser } = thread;
      if (!askUser) throw new Error('the daemon passes askUser');
      let run: AbortController | undefined;
      const settle = () => emit({ jsonrpc: '2.0', method: `${id}/prompt/settled`, params: { threadId } });
      return {
        providerThreadId: `session-${threadId}`,
        async prompt(text) {
          const current = (run = new AbortController());
          emit({ jsonrpc: '2.0', method: `${id}/prompt/started`, params: { threadId } });
          emit(agentStart(threadId));
          emit(assistantStart(threadId));
          // Resolves once accepted, as a real agent's prompt does: the question is answered later.
          void askUser(questionFor(text), current.signal).then((decision) => {
            decisions.push({ threadId, decision });
            if (decision.outcome === 'cancelled' || run !== current) return;
            run = undefined;
            emit(textDelta(threadId, decision.optionKind));
            emit(agentEnd(threadId, decision.optionKind));
            settle();
          });
        },
        async stop() {
          if (!run) return;
          run.abort();
          run = undefined;
          emit(
            sdk(threadId, {
              type: 'agent_end',
              messages: [{ role: 'assistant', content: [], stopReason: 'aborted', errorMessage: 'Request was aborted', timestamp: 2 }],
            }),
          );
          settle();
        },
        async setPermissionMode(mode) {
          modes.push({ threadId, mode });
        },
        async dispose() {
          run?.abort();
        },
      };
    },
  };
}

function questionFor(text: string): ApprovalQuestion {
  const edit = /^edit (.+)$/.exec(text);
  if (edit) return { subject: { kind: 'edit', title: `Edit ${edit[1]}`, paths: [edit[1]!] }, options: ASKING_OPTIONS };
  return { subject: { kind: 'execute', title: `Run ${text}`, command: text, paths: [] }, options: ASKING_OPTIONS };
}
