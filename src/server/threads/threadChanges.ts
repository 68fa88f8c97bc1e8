import type { Registry } from '../../registry/registry';
import type { ThreadRecord } from '../../registry/records';
import { mustGet } from '../http/lookups';

/**
 * Runs one change of a thread as its only owner (issue 37, `registry.threadLock`), on the record as it is
 * once the changes before it have settled: what it reads, decides, writes and appends (its `thread/updated`
 * row) is never interleaved with another change of the thread, on this server or any replica. A thread gone
 * by then (deleted meanwhile) answers 404 `thread_not_found`.
 *
 * Every change of a thread's record goes through here: PATCH, delete, a prompt's acceptance, and what the
 * background learns later (the agent's session, its failure). Reads and commands that leave the record as it
 * is (a stop, an approval's answer, a view) do not wait for it. `change` must not await another change of
 * the same thread: it would wait for itself.
 */
export function changeThread<T>(registry: Registry, threadId: string, change: (thread: ThreadRecord) => Promise<T>): Promise<T> {
  return registry.threadLock.run(threadId, async () => change(await mustGet(registry.threads, threadId, 'thread')));
}

/** The same for a change the background makes (a re-open, a session learnt later): nothing when the thread is gone. */
export function changeThreadIfLive(
  registry: Registry,
  threadId: string,
  change: (thread: ThreadRecord) => Promise<unknown>,
): Promise<void> {
  return registry.threadLock.run(threadId, async () => {
    const thread = await registry.threads.get(threadId);
    if (thread) await change(thread);
  });
}
