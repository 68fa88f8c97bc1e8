import { THREAD_EVENT_TYPE, type NewThreadEvent } from '../../protocol/threadEvents';
import type { ForkCut } from './forkCut';

/**
 * A fork's first rows: the source's rows up to the cut, unchanged but for their thread (the store numbers
 * them again from 1, so the fork's log has no gap), then one `thread/forked` row saying where they came from.
 * `data.providerThreadId` stays the source's: it names the session those rows were written in.
 */
export function forkRows(cut: ForkCut, sourceThreadId: string, threadId: string): NewThreadEvent[] {
  const copied = cut.rows.map(({ type, turnId, scope, data }) => ({ threadId, type, turnId, scope, data }) as NewThreadEvent);
  const forked: NewThreadEvent = {
    threadId,
    type: THREAD_EVENT_TYPE.threadForked,
    turnId: null,
    scope: { kind: 'thread' },
    data: { providerThreadId: threadId, sourceThreadId, sourceSeq: cut.sourceSeq, sourceTurnId: cut.sourceTurnId },
  };
  return [...copied, forked];
}
