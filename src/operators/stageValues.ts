import type { JsonRpcError } from '../protocol/jsonRpc';
import type { NewThreadEvent, StoredThreadEvent } from '../protocol/threadEvents';
import type { TurnFact } from '../turns/turnState';
import type { DriverInput } from '../turns/ruleInput';

/**
 * What flows between stages: the frame's correlation id plus either a value or the JSON-RPC error that
 * rejected it. Errors travel as values so one bad frame never ends the long-lived stream, and every frame
 * reaches the end of the pipeline exactly once (the ingest resolves its caller there).
 */
export type Step<T> = { correlationId: number } & ({ ok: true; value: T } | { ok: false; error: JsonRpcError });

export type IngestFrame =
  | {
      correlationId: number;
      /** A parsed JSON value or a raw JSON string. */
      frame: unknown;
    }
  /** An input the ingest made itself (a restored state, a grace that ended): never read from the wire. */
  | { correlationId: number; input: DriverInput };

/**
 * The value of each stage's output, in pipeline order: `scanTurnState` → facts, `emitEvents` → events,
 * `persistWithSeq` → stored rows. `turnOpen` is the thread's `status` after the frame (`active` / `idle`).
 */
export interface ThreadFacts {
  threadId: string;
  facts: TurnFact[];
  turnOpen: boolean;
  /** The turn whose grace this input started: the ingest sends a `graceElapsed` for it after `turnGraceMs`. */
  graceFor?: string;
  /** The thread's questions still waiting for an answer after the frame, in the order asked; absent when none. */
  pendingApprovalIds?: readonly string[];
  /**
   * True when a prompt was taken (`prompt/started`) and no run has begun for it yet (pi between accepting a prompt
   * and its run's `agent_start`, or waiting to retry): no turn is open, but the agent is busy. Absent otherwise.
   */
  promptAwaitingRun?: true;
}

export interface ThreadEvents {
  threadId: string;
  events: NewThreadEvent[];
  turnOpen: boolean;
  graceFor?: string;
  pendingApprovalIds?: readonly string[];
  promptAwaitingRun?: true;
}

export interface PersistedEvents {
  threadId: string;
  rows: StoredThreadEvent[];
  turnOpen: boolean;
  graceFor?: string;
  pendingApprovalIds?: readonly string[];
  promptAwaitingRun?: true;
}

export function okStep<T>(correlationId: number, value: T): Step<T> {
  return { correlationId, ok: true, value };
}

export function errorStep<T>(correlationId: number, error: JsonRpcError): Step<T> {
  return { correlationId, ok: false, error };
}
