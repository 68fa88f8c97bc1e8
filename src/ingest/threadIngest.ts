import { randomUUID } from 'node:crypto';
import { Subject, type SchedulerLike } from 'rxjs';
import { threadEvents } from '../../pipelines/thread-events';
import { JSON_RPC_ERROR, jsonRpcError, type JsonRpcError } from '../protocol/jsonRpc';
import type { IngestFrame } from '../operators/stageValues';
import { threadIdOf } from '../protocol/signals';
import type { ThreadStatus, TurnStatus } from '../protocol/threadEvents';
import type { EventStore, StoredThreadEvent } from '../store/eventStore';
import type { DriverInput } from '../turns/ruleInput';
import { createGraceTimers, DEFAULT_TURN_GRACE_MS } from './graceTimers';
import { createThreadFactsBook } from './threadFacts';
import { createThreadHydration } from './threadHydration';

export type IngestOutcome = { ok: true; rows: StoredThreadEvent[] } | { ok: false; error: JsonRpcError };

export interface ThreadIngest {
  /**
   * Resolves with exactly the rows this frame produced (often none), or the JSON-RPC error that rejected it.
   * `threadId`: the frame's `params.threadId` (threadIdOf) when the caller has read it already, so a frame's
   * thread is peeked once on its way in; the pipeline still validates the frame.
   */
  ingest(frame: unknown, threadId?: string): Promise<IngestOutcome>;
  /** `active` while a turn is open (spec part 3). */
  threadStatus(threadId: string): Promise<ThreadStatus>;
  /** How the last turn ended; null while a turn is open or before any (lastTurnStatus.ts). */
  lastTurnStatus(threadId: string): Promise<TurnStatus | null>;
  /** The ids of the thread's questions nobody answered yet (`approval/requested` without its resolve), in the order asked. */
  pendingApprovalIds(threadId: string): Promise<string[]>;
  /**
   * True while a prompt the agent took (`prompt/started` stored) has no run yet: pi between accepting it and its
   * run's `agent_start`. The status is `idle` then, but the agent is not (the idle close asks).
   */
  promptAwaitingRun(threadId: string): Promise<boolean>;
  /**
   * Ends every pending turn grace now, as if its time had passed, and resolves once their rows are stored
   * (replay: at the end of a recording nothing more can arrive).
   */
  elapseGraces(): Promise<void>;
  /** Lets frames already accepted finish; later `ingest` calls are rejected. Does not close the store. */
  close(): Promise<void>;
}

export interface ThreadIngestDeps {
  store: EventStore;
  providerThreadIdFor?(threadId: string): string;
  contextWindowFor?(threadId: string): number | undefined;
  /** `providerCheckpointId` of a completing turn (the agent session's leaf entry); default: the turn id. */
  checkpointIdFor?(threadId: string): string | undefined;
  newId?(): string;
  /** Named in `provider/unhandled` rows; defaults to `pi`. */
  providerId?: string;
  /** The agent running the thread, named in those rows instead when known (a daemon with several agents). */
  providerIdFor?(threadId: string): string | undefined;
  /** How long a stop or a failed settle waits for the run's `agent_end` (`turnGraceMs`, default 5 s). */
  turnGraceMs?: number;
  /** The clock of the graces; default `asyncScheduler` (tests: virtual time). */
  scheduler?: SchedulerLike;
  /** This process's epoch, stamped on `turn/started`; default a fresh UUID: each ingest is a process. */
  processEpoch?: string;
}

/**
 * The one entry point for frames: pushes them through the long-lived thread-events pipeline and answers
 * each caller with its own frame's result. The first time this process sees a thread, its rows are read
 * and handed to the turn rules as a `restored` input (threadHydration.ts), so seq and token totals continue
 * and a turn whose run died with an earlier process is closed before anything else of the thread.
 */
export function createThreadIngest(deps: ThreadIngestDeps): ThreadIngest {
  const newId = deps.newId ?? randomUUID;
  const processEpoch = deps.processEpoch ?? randomUUID();
  const { answer, expectAnswer, waitingIds } = createAnswerBook();
  const facts = createThreadFactsBook();
  let closing: Promise<void> | undefined;
  let frames$ = new Subject<IngestFrame>();
  let done: Promise<void> = Promise.resolve();

  const hydration = createThreadHydration({
    read: async (threadId) => {
      const rows = await deps.store.list(threadId);
      facts.noteRead(threadId, rows);
      return rows;
    },
    processEpoch,
    send: (frame) => (closing ? answer(frame.correlationId, closedOutcome()) : frames$.next(frame)),
    refuse: (frame, error) => answer(frame.correlationId, { ok: false, error }),
    expectAnswer,
  });

  /** Graces whose `graceElapsed` is on its way through the pipeline. */
  const elapsing = new Set<Promise<IngestOutcome>>();
  const timers = createGraceTimers({
    graceMs: deps.turnGraceMs ?? DEFAULT_TURN_GRACE_MS,
    ...(deps.scheduler ? { scheduler: deps.scheduler } : {}),
    elapsed: (threadId, turnId) => {
      const outcome = admit(threadId, { kind: 'graceElapsed', threadId, turnId });
      elapsing.add(outcome);
      void outcome.then(() => elapsing.delete(outcome));
    },
  });

  const admit = (threadId: string, input: DriverInput): Promise<IngestOutcome> => {
    const { correlationId, outcome } = expectAnswer();
    hydration.admit(threadId, { correlationId, input });
    return outcome;
  };

  const start = (): void => {
    frames$ = new Subject<IngestFrame>();
    let finished!: () => void;
    done = new Promise((resolve) => (finished = resolve));
    frames$.pipe(threadEvents({ ...deps, newId, processEpoch, storeFailed: (threadIds) => hydration.forget(threadIds) })).subscribe({
      next: (step) => {
        if (!step.ok) return answer(step.correlationId, { ok: false, error: step.error });
        const { threadId, graceFor, rows } = step.value;
        facts.noteStep(step.value);
        // Timed from when the stop (or failed settle) is stored: the grace is what the run gets after that.
        if (graceFor !== undefined && !closing) timers.start(threadId, graceFor);
        answer(step.correlationId, { ok: true, rows });
      },
      error: (cause: unknown) => {
        // Stages turn bad input into values, so this is a bug; forget in-memory state and start again
        // from the store rather than leave every later frame unanswered.
        const error = jsonRpcError(JSON_RPC_ERROR.internalError, 'The thread-event pipeline failed', String(cause));
        // Parked frames never reached the failed pipeline: they go into the new one once their read ends.
        const stillParked = hydration.parkedIds();
        for (const correlationId of waitingIds()) if (!stillParked.has(correlationId)) answer(correlationId, { ok: false, error });
        hydration.reset();
        finished();
        if (!closing) start();
      },
      complete: finished,
    });
  };
  start();

  return {
    ingest(frame, knownThreadId) {
      if (closing) return Promise.resolve(closedOutcome());
      const value = parseIfJson(frame);
      const threadId = knownThreadId ?? threadIdOf(value);
      const { correlationId, outcome } = expectAnswer();
      // Without a thread id the frame is rejected by validation: it needs no store read.
      if (threadId === undefined) frames$.next({ correlationId, frame: value });
      else hydration.admit(threadId, { correlationId, frame: value });
      return outcome;
    },
    async threadStatus(threadId) {
      await hydration.restored(threadId);
      return facts.of(threadId).status;
    },
    async lastTurnStatus(threadId) {
      await hydration.restored(threadId);
      return facts.of(threadId).lastTurn;
    },
    async pendingApprovalIds(threadId) {
      await hydration.restored(threadId);
      return [...facts.of(threadId).pendingApprovalIds];
    },
    async promptAwaitingRun(threadId) {
      await hydration.restored(threadId);
      return facts.of(threadId).promptAwaitingRun;
    },
    async elapseGraces() {
      timers.elapseAll();
      await Promise.all([...elapsing]);
    },
    close() {
      closing ??= (async () => {
        timers.cancelAll();
        frames$.complete();
        await done;
      })();
      return closing;
    },
  };
}

/** Each caller's promise of its own frame's outcome, by the correlation id its frame travels with. */
function createAnswerBook() {
  const waiting = new Map<number, (outcome: IngestOutcome) => void>();
  let nextCorrelationId = 1;
  return {
    answer(correlationId: number, outcome: IngestOutcome): void {
      waiting.get(correlationId)?.(outcome);
      waiting.delete(correlationId);
    },
    expectAnswer() {
      const correlationId = nextCorrelationId++;
      const outcome = new Promise<IngestOutcome>((resolve) => waiting.set(correlationId, resolve));
      return { correlationId, outcome, answered: outcome };
    },
    waitingIds: (): number[] => [...waiting.keys()],
  };
}

function closedOutcome(): IngestOutcome {
  return { ok: false, error: jsonRpcError(JSON_RPC_ERROR.internalError, 'The ingest is closed') };
}

/** Parsing here lets the ingest find the thread id; a string that is not JSON goes on as is (→ -32700). */
function parseIfJson(frame: unknown): unknown {
  if (typeof frame !== 'string') return frame;
  try {
    return JSON.parse(frame);
  } catch {
    return frame;
  }
}
