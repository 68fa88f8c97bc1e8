import { from, lastValueFrom, toArray } from 'rxjs';
import { threadEvents } from '../../../pipelines/thread-events';
import type { PersistedEvents } from '../../../src/operators/stageValues';
import type { Step } from '../../../src/operators/stageValues';
import type { EventStore, StoredThreadEvent } from '../../../src/store/eventStore';
import { createMemoryEventStore } from '../../../src/store/memoryEventStore';
import { sequentialIds } from './marbles';

/** Runs frames through the real pipeline into an in-memory store; returns every step and the stored rows. */
export async function runPipeline(frames: unknown[], store: EventStore = createMemoryEventStore()) {
  const steps: Step<PersistedEvents>[] = await lastValueFrom(
    from(frames.map((frame, i) => ({ correlationId: i + 1, frame }))).pipe(threadEvents({ store, newId: sequentialIds('id') }), toArray()),
  );
  const rows = steps.flatMap((step) => (step.ok ? step.value.rows : []));
  return { steps, rows, store };
}

export const typesOf = (rows: StoredThreadEvent[]) => rows.map((row) => row.type);
export const rowsOfThread = (rows: StoredThreadEvent[], threadId: string) => rows.filter((row) => row.threadId === threadId);
