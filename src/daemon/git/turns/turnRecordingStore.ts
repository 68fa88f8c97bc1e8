import type { EventStore } from '../../../store/eventStore';
import type { TurnRecorder } from './turnRecorder';

/**
 * The daemon's store with a tap on what its ingest appends: each batch goes to the recorder (which only
 * queues git work) before it goes to the store, unchanged; the store's answer is the caller's answer.
 */
export function recordingTurnsOf(store: EventStore, recorder: TurnRecorder): EventStore {
  return {
    append(events) {
      recorder.rowsAppended(events);
      return store.append(events);
    },
    list: (threadId, options) => store.list(threadId, options),
    lastSeq: (threadId) => store.lastSeq(threadId),
    deleteThread: (threadId) => store.deleteThread(threadId),
    close: () => store.close(),
  };
}
