import { randomUUID } from 'node:crypto';
import { Subject, type Subscription } from 'rxjs';
import { threadEvents } from '../../pipelines/thread-events';
import { restoreTurnState } from '../turns/restoreTurnState';
import type { ThreadTurnState } from '../turns/turnState';
import { JSON_RPC_ERROR, jsonRpcError, type JsonRpcError } from '../protocol/jsonRpc';
import type { IngestFrame } from '../operators/stageValues';
import type { EventStore, StoredThreadEvent } from '../store/eventStore';

export type IngestOutcome = { ok: true; rows: StoredThreadEvent[] } | { ok: false; error: JsonRpcError };
export type ThreadStatus = 'active' | 'idle';

export interface ThreadIngest {
  /** Resolves with exactly the rows this frame produced (often none), or the JSON-RPC error that rejected it. */
  ingest(frame: unknown): Promise<IngestOutcome>;
  /** `active` while a turn is open (spec part 3). */
  threadStatus(threadId: string): Promise<ThreadStatus>;
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
}

/**
 * The one entry point for frames: pushes them through the long-lived thread-events pipeline and answers
 * each caller with its own frame's result. A thread's turn state is rebuilt from the store the first time
 * this process sees the thread, so a restart continues an open turn (same turn id, seq continues).
 */
export function createThreadIngest(deps: ThreadIngestDeps): ThreadIngest {
  const newId = deps.newId ?? randomUUID;
  const waiting = new Map<number, (outcome: IngestOutcome) => void>();
  const restored = new Map<string, ThreadTurnState>();
  const hydrations = new Map<string, Promise<void>>();
  const statuses = new Map<string, ThreadStatus>();
  const hydrated = new Set<string>();
  /** Threads whose pipeline state restarts from the store's even when it holds no rows (after `forget`). */
  const mustRestart = new Set<string>();
  /** Frames per thread waiting for the thread's store read, in arrival order; later frames queue behind. */
  const parked = new Map<string, IngestFrame[]>();

  let nextCorrelationId = 1;
  let closing: Promise<void> | undefined;
  let frames$ = new Subject<IngestFrame>();
  let done: Promise<void> = Promise.resolve();

  const answer = (correlationId: number, outcome: IngestOutcome) => {
    waiting.get(correlationId)?.(outcome);
    waiting.delete(correlationId);
  };

  /** The pipeline takes a thread's state read from the store once, with the thread's next frame. */
  const takeRestoredState = (threadId: string): ThreadTurnState | undefined => {
    const state = restored.get(threadId);
    if (state) restored.delete(threadId);
    return state;
  };

  /**
   * A failed append lost rows the pipeline's turn state had already counted: the thread's next frames wait
   * for a fresh read of the store, and the pipeline restarts the thread from what was really stored.
   */
  const forget = (threadIds: ReadonlySet<string>) => {
    for (const threadId of threadIds) {
      hydrated.delete(threadId);
      hydrations.delete(threadId);
      restored.delete(threadId);
      mustRestart.add(threadId);
    }
  };

  const start = (): Subscription => {
    frames$ = new Subject<IngestFrame>();
    let finished!: () => void;
    done = new Promise((resolve) => (finished = resolve));
    return frames$
      .pipe(threadEvents({ ...deps, newId, takeRestoredState, storeFailed: forget }))
      .subscribe({
        next: (step) => {
          if (!step.ok) return answer(step.correlationId, { ok: false, error: step.error });
          statuses.set(step.value.threadId, step.value.turnOpen ? 'active' : 'idle');
          answer(step.correlationId, { ok: true, rows: step.value.rows });
        },
        error: (cause: unknown) => {
          // Stages turn bad input into values, so this is a bug; forget in-memory state and start again
          // from the store rather than leave every later frame unanswered.
          const error = jsonRpcError(JSON_RPC_ERROR.internalError, 'The thread-event pipeline failed', String(cause));
          // Parked frames never reached the failed pipeline: they go into the new one once their read ends.
          const stillParked = new Set([...parked.values()].flat().map((frame) => frame.correlationId));
          for (const correlationId of [...waiting.keys()]) if (!stillParked.has(correlationId)) answer(correlationId, { ok: false, error });
          hydrations.clear();
          hydrated.clear();
          restored.clear();
          finished();
          if (!closing) start();
        },
        complete: finished,
      });
  };
  start();

  const expectAnswer = () => {
    const correlationId = nextCorrelationId++;
    const outcome = new Promise<IngestOutcome>((resolve) => waiting.set(correlationId, resolve));
    return { correlationId, outcome };
  };

  const push = (value: unknown): Promise<IngestOutcome> => {
    const { correlationId, outcome } = expectAnswer();
    frames$.next({ correlationId, frame: value });
    return outcome;
  };

  /**
   * Parks a frame of a thread whose store read is still running. The first parked frame starts the wait;
   * the read's end releases the thread's frames in arrival order in one go, so a burst on new threads costs
   * an array push per frame instead of an async wait each.
   */
  const park = (threadId: string, value: unknown): Promise<IngestOutcome> => {
    const { correlationId, outcome } = expectAnswer();
    const frame = { correlationId, frame: value };
    const queued = parked.get(threadId);
    if (queued) {
      queued.push(frame);
      return outcome;
    }
    parked.set(threadId, [frame]);
    hydrate(threadId).then(
      () => release(threadId, (next) => (closing ? answer(next.correlationId, closedOutcome()) : frames$.next(next))),
      (cause: unknown) => {
        const error = jsonRpcError(JSON_RPC_ERROR.internalError, 'Could not read the thread from the store', String(cause));
        release(threadId, (next) => answer(next.correlationId, { ok: false, error }));
      },
    );
    return outcome;
  };

  const release = (threadId: string, deliver: (frame: IngestFrame) => void) => {
    const queued = parked.get(threadId) ?? [];
    parked.delete(threadId);
    for (const frame of queued) deliver(frame);
  };

  /** Reads a thread's rows once and hands its turn state to the pipeline (a thread without rows needs none). */
  const hydrate = (threadId: string): Promise<void> => {
    const current = hydrations.get(threadId);
    if (current) return current;
    const hydration: Promise<void> = Promise.resolve(deps.store.list(threadId)).then(
      (rows) => {
        // A reset while this read ran (a failed append, a pipeline restart) wants a newer read: it counts.
        if (hydrations.get(threadId) !== hydration) return hydrate(threadId);
        const state = restoreTurnState(rows);
        if (rows.length > 0 || mustRestart.delete(threadId)) restored.set(threadId, state);
        statuses.set(threadId, state.turn ? 'active' : 'idle');
        hydrated.add(threadId);
      },
      (cause: unknown) => {
        if (hydrations.get(threadId) === hydration) hydrations.delete(threadId);
        throw cause;
      },
    );
    hydrations.set(threadId, hydration);
    return hydration;
  };

  return {
    ingest(frame) {
      if (closing) return Promise.resolve(closedOutcome());
      const value = parseIfJson(frame);
      const threadId = threadIdOf(value);
      // Fast path: a thread already read from the store with no frame still waiting for that read can go
      // straight in; otherwise wait behind the read (and behind earlier frames of the thread, in order).
      if (threadId === undefined || (hydrated.has(threadId) && !parked.has(threadId))) return push(value);
      return park(threadId, value);
    },
    async threadStatus(threadId) {
      await hydrate(threadId);
      return statuses.get(threadId) ?? 'idle';
    },
    close() {
      closing ??= (async () => {
        frames$.complete();
        await done;
      })();
      return closing;
    },
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

function threadIdOf(value: unknown): string | undefined {
  const params = (value as { params?: { threadId?: unknown } } | null)?.params;
  return typeof params?.threadId === 'string' && params.threadId !== '' ? params.threadId : undefined;
}
