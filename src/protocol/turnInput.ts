import type { AcpEvent } from './acpFrames';
import type { ApprovalRequestedParams, ApprovalResolvedParams } from './approvals';
import type { SdkEvent } from './sdkEvents';
import type { RewindChange } from './rewindFrames';
import type { ShipRow } from './shipRows';
import type { ThreadUpdatedParams } from './threadUpdateFrame';

/** A validated frame, in the words of the turn rules. Every kind names the thread it belongs to. */
export type TurnInput =
  | { kind: 'sdk'; threadId: string; event: SdkEvent; /** the original envelope, kept for `provider/unhandled` */ envelope: unknown }
  /** `prompt`: the text sent, when the sender names it (a prompt never taken is still shown). */
  | { kind: 'promptStarted'; threadId: string; providerId: string; prompt?: string }
  | { kind: 'promptSettled'; threadId: string; providerId: string; error?: unknown }
  | { kind: 'stop'; threadId: string }
  /** A frame of an ACP agent (acpFrames.ts); `envelope` as for `sdk`. */
  | { kind: 'acp'; threadId: string; event: AcpEvent; envelope: unknown }
  /** An agent asks whether a tool call may run (approvals.ts), and the answer to it, from any provider. */
  | { kind: 'approvalRequested'; threadId: string; request: ApprovalRequestedParams }
  | { kind: 'approvalResolved'; threadId: string; resolution: ApprovalResolvedParams }
  /** The server changed the thread's own fields (threadUpdateFrame.ts). */
  | { kind: 'threadUpdated'; threadId: string; changes: ThreadUpdatedParams }
  /** The host reverted the thread's files to a turn's start, or undid that (rewindFrames.ts). */
  | { kind: 'rewound'; threadId: string; change: RewindChange }
  /** A commit, push or pull request of the thread (shipRows.ts, issue 39). */
  | { kind: 'shipRow'; threadId: string; row: ShipRow };
