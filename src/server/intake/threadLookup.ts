import type { ThreadRecord } from '../../registry/records';
import type { Registry } from '../../registry/registry';

/** The thread as the registry has it, undefined for an unknown thread, or `failed` when the read failed. */
export type LookedUp = ThreadRecord | undefined | 'failed';

/**
 * Reads the threads a group of frames names, one registry read per thread, all at once; a read that fails
 * fails only that thread's frames. Nothing is kept between groups: every group sees the registry as it is
 * (a failing registry fails the frames at once, a thread created a moment ago is found).
 */
export async function lookUpThreads(
  registry: Pick<Registry, 'threads'>,
  threadIds: ReadonlySet<string>,
  log: (message: string) => void,
): Promise<Map<string, LookedUp>> {
  const looked = await Promise.all(
    [...threadIds].map(async (threadId): Promise<[string, LookedUp]> => {
      try {
        return [threadId, await registry.threads.get(threadId)];
      } catch (cause) {
        // The sender learns that the frame failed, the log learns why.
        log(`intake frame failed: ${String(cause)}`);
        return [threadId, 'failed'];
      }
    }),
  );
  return new Map(looked);
}
