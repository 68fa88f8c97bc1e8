import type { JsonRpcError } from '../protocol/jsonRpc';
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

export function okStep<T>(correlationId: number, value: T): Step<T> {
  return { correlationId, ok: true, value };
}

export function errorStep<T>(correlationId: number, error: JsonRpcError): Step<T> {
  return { correlationId, ok: false, error };
}
