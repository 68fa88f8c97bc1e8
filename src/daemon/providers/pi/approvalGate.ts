import type { ExtensionFactory, ToolCallEventResult } from '@mariozechner/pi-coding-agent';
import type { ApprovalDecision, ApprovalOption, PermissionMode } from '../../../protocol/approvals';
import type { AskUser } from '../agentProvider';
import { asksFirst } from './permissionMode';
import { toolCallSubject } from './toolCallSubject';

export interface ApprovalGateOptions {
  mode: PermissionMode;
  /** Absent: nobody can answer, so every call that would ask is refused. */
  askUser?: AskUser;
}

/**
 * One thread's approvals, loaded into its pi session as an inline extension (`extension`). pi awaits a
 * `tool_call` handler before the tool runs (0.73.1 `ExtensionRunner.emitToolCall`) and turns
 * `{ block: true, reason }` into an error tool result with that reason, which the model reads and the run goes
 * on; so holding the handler until the user answers is an approval prompt. Inline extensions run after the
 * project's, so the question shows the arguments the tool will really get.
 */
export interface ApprovalGate {
  extension: ExtensionFactory;
  /** Takes effect from the next tool call; a question already open stays open. */
  setMode(mode: PermissionMode): void;
  /** Cancels the open questions: the thread is closing. */
  dispose(): void;
}

export function createApprovalGate(options: ApprovalGateOptions): ApprovalGate {
  let mode = options.mode;
  // "Allow always" is for this tool in this thread: remembered as long as the thread's session is open.
  const alwaysAllowed = new Set<string>();
  const closing = new AbortController();

  const extension: ExtensionFactory = (pi) => {
    pi.on('tool_call', async (event, ctx): Promise<ToolCallEventResult | undefined> => {
      const { toolName } = event;
      if (!asksFirst(mode, toolName) || alwaysAllowed.has(toolName)) return undefined;
      // The run's signal: a stop aborts the question along with the run, so pi's abort is never held up by it.
      const signal = ctx.signal ? AbortSignal.any([ctx.signal, closing.signal]) : closing.signal;
      const question = { subject: toolCallSubject(event, ctx.cwd), options: optionsFor(toolName) };
      const decision = options.askUser ? await untilAborted(options.askUser(question, signal), signal) : NOBODY_TO_ASK;
      if (decision.outcome === 'selected' && decision.optionKind === 'allow_always') alwaysAllowed.add(toolName);
      return blockUnlessAllowed(decision, toolName);
    });
  };

  return {
    extension,
    setMode: (next) => (mode = next),
    dispose: () => closing.abort(),
  };
}

function optionsFor(toolName: string): ApprovalOption[] {
  return [
    { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'allow_always', name: `Always allow ${toolName} in this thread`, kind: 'allow_always' },
    { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  ];
}

const NOBODY_TO_ASK: ApprovalDecision = { outcome: 'cancelled', decidedBy: 'cancelled', reason: 'nobody can answer approvals here' };
const ABORTED: ApprovalDecision = { outcome: 'cancelled', decidedBy: 'cancelled', reason: 'the run was stopped' };

/** The answer, or `cancelled` as soon as `signal` aborts even if the asker does not honour it: a stop never hangs. */
function untilAborted(answer: Promise<ApprovalDecision>, signal: AbortSignal): Promise<ApprovalDecision> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  let onAbort!: () => void;
  const aborted = new Promise<ApprovalDecision>((resolve) => (onAbort = () => resolve(ABORTED)));
  signal.addEventListener('abort', onAbort, { once: true });
  return Promise.race([answer, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

function blockUnlessAllowed(decision: ApprovalDecision, toolName: string): ToolCallEventResult | undefined {
  if (decision.outcome === 'cancelled') return { block: true, reason: `No one approved this ${toolName} call: ${decision.reason}` };
  if (decision.optionKind === 'allow_once' || decision.optionKind === 'allow_always') return undefined;
  const who = decision.decidedBy === 'user' ? 'The user' : "The thread's permission mode";
  return { block: true, reason: `${who} rejected this ${toolName} call.` };
}
