import type { JsonRpcResponse } from '../../protocol/jsonRpc';
import { THREAD_NOT_OWNED, ThreadNotOwnedDataSchema, type AppendBatch } from '../../protocol/daemonLink';

/**
 * The threads a `THREAD_NOT_OWNED` answer names (issue 37: the server serves a host its own threads only), or
 * undefined for any other answer. A well-formed refusal always names at least one.
 */
export function refusedThreadsOf(answer: JsonRpcResponse): ReadonlySet<string> | undefined {
  if (!('error' in answer) || answer.error.code !== THREAD_NOT_OWNED) return undefined;
  const data = ThreadNotOwnedDataSchema.safeParse(answer.error.data);
  return data.success ? new Set(data.data.threadIds) : undefined;
}

/**
 * The batch without the refused threads' events, under the same id (the seqs, not the id, make a re-send
 * safe); undefined when nothing is left. The server stored none of the batch, so the rest goes again whole.
 */
export function withoutThreads(batch: AppendBatch, refused: ReadonlySet<string>): AppendBatch | undefined {
  const events = batch.events.filter((event) => !refused.has(event.threadId));
  if (events.length === 0) return undefined;
  const firstSeqs = Object.fromEntries(Object.entries(batch.firstSeqs).filter(([threadId]) => !refused.has(threadId)));
  return { batchId: batch.batchId, events, firstSeqs };
}

/** What is left of a batch once the refused threads' rows are dropped (undefined: nothing). */
export type RefusalDrop = (batch: AppendBatch, answer: JsonRpcResponse) => { rest: AppendBatch | undefined } | undefined;

/**
 * For a `THREAD_NOT_OWNED` answer to `batch` (issue 37: the thread was deleted, or is not this host's), what
 * is left of the batch without those threads, and says so once per thread; undefined for any other answer.
 * Those rows can never be stored, so holding them would wedge the outbox.
 */
export function refusalDrop(log: (message: string) => void): RefusalDrop {
  const tell = refusalLog(log);
  return (batch, answer) => {
    const refused = refusedThreadsOf(answer);
    if (!refused) return undefined;
    const rest = withoutThreads(batch, refused);
    // A refusal naming none of the batch's threads would be answered the same way forever.
    if (rest && rest.events.length === batch.events.length) return undefined;
    tell(refused, batch.events.length - (rest?.events.length ?? 0));
    return { rest };
  };
}

/**
 * Says once per thread, for the daemon's whole run, that its rows were dropped: a thread deleted while this
 * daemon was away can have many batches in the outbox, and one line says all there is to say.
 */
function refusalLog(log: (message: string) => void): (refused: ReadonlySet<string>, rows: number) => void {
  const told = new Set<string>();
  return (refused, rows) => {
    const news = [...refused].filter((threadId) => !told.has(threadId));
    if (news.length === 0) return;
    news.forEach((threadId) => told.add(threadId));
    log(
      `the server refused rows of ${news.join(', ')}: not a thread of this host (deleted, or never this host's); ` +
        `dropped ${rows} row(s) of it and every later one without a word`,
    );
  };
}
