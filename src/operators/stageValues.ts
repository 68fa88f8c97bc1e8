import type { JsonRpcError } from '../protocol/jsonRpc';
import type { NewThreadEvent, StoredThreadEvent } from '../protocol/threadEvents';
import type { TurnFact } from '../turns/turnState';

/**
 * What flows between stages: the frame's correlation id plus either a value or the JSON-RPC error that
 * rejected it. Errors travel as values so one bad frame never ends the long-lived stream, and every frame
 * reaches the end of the pipeline exactly once (the ingest resolves its caller there).
 */
export type Step<T> = { correlationId: number } & ({ ok: true; value: T } | { ok: false; error: JsonRpcError });

export interface IngestFrame {
  correlationId: number;
  /** A parsed JSON value or a raw JSON string. */
  frame: unknown;
}

/**
 * The value of each stage's output, in pipeline order: `scanTurnState` → facts, `emitEvents` → events,
 * `persistWithSeq` → stored rows. `turnOpen` is the thread's `status` after the frame (`active` / `idle`).
 */
export interface ThreadFacts {
  threadId: string;
  facts: TurnFact[];
  turnOpen: boolean;
}

export interface ThreadEvents {
  threadId: string;
  events: NewThreadEvent[];
  turnOpen: boolean;
}

export interface PersistedEvents {
  threadId: string;
  rows: StoredThreadEvent[];
  turnOpen: boolean;
}

export function okStep<T>(correlationId: number, value: T): Step<T> {
  return { correlationId, ok: true, value };
}

export function errorStep<T>(correlationId: number, error: JsonRpcError): Step<T> {
  return { correlationId, ok: false, error };
}
