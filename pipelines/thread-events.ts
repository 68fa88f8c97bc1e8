import { pipe, type OperatorFunction } from 'rxjs';
import { emitEvents, type EmitEventsDeps } from '../src/operators/emitEvents';
import { persistWithSeq, type PersistOptions } from '../src/operators/persistWithSeq';
import type { PersistedEvents } from '../src/operators/stageValues';
import { scanTurnState, type ScanTurnStateDeps } from '../src/operators/scanTurnState';
import { validate } from '../src/operators/validate';
import type { IngestFrame, Step } from '../src/operators/stageValues';
import type { EventStore } from '../src/store/eventStore';

export interface ThreadEventsDeps extends ScanTurnStateDeps, EmitEventsDeps, Pick<PersistOptions, 'storeFailed'> {
  store: EventStore;
}

/**
 * SDK envelopes and signals → ordered, durable thread events. One long-lived pipeline serves every thread;
 * each frame comes out exactly once, with its stored rows or the JSON-RPC error that rejected it.
 * To add a stage, see pipelines/README.md.
 */
export function threadEvents(deps: ThreadEventsDeps): OperatorFunction<IngestFrame, Step<PersistedEvents>> {
  return pipe(validate(), scanTurnState(deps), emitEvents(deps), persistWithSeq(deps.store, { storeFailed: deps.storeFailed }));
}
