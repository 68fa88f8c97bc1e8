import type { TurnInput } from '../protocol/turnInput';
import type { ThreadTurnState } from './turnState';

/**
 * The ingest's own inputs to the turn rules, next to the validated frames (`TurnInput`). They never come
 * from the wire: the ingest makes them from a store read and from its clock.
 */
export type DriverInput =
  /**
   * The thread's state as its stored rows tell it, handed over before the thread's next frame: the first time
   * this process sees the thread, or after a failed append lost rows the pipeline had counted. `processEpoch`
   * is this process's: a turn of another epoch lost its run with that process (see `onRestored`).
   */
  | { kind: 'restored'; threadId: string; state: ThreadTurnState; processEpoch: string }
  /** The grace of turn `turnId` ended (`turnGraceMs` after a stop or a failed settle the run did not answer). */
  | { kind: 'graceElapsed'; threadId: string; turnId: string };

export type RuleInput = TurnInput | DriverInput;

/** `turn/completed.error.message` of a turn whose run belonged to a process that ended. */
export const RUN_LOST_MESSAGE = 'the agent stopped with the host daemon; the run was lost';
