import { handOverFrame, lookupFailed, readIntakeFrame, type DispatchedFrame, type IntakeDeps } from './intakeFrame';
import { lookUpThreads } from './threadLookup';

/**
 * Dispatches frames that arrived together on one socket: each envelope is checked, the threads they name are
 * looked up together (once each, not once a frame), then every frame is handed to its host in arrival order,
 * synchronously, so they reach the host's pipeline together and its group commit stores them in one append.
 * Resolves once all are on their way; each `answer` waits for its own rows. Never rejects: every failure is
 * an answer.
 */
export async function dispatchIntakeFrames(deps: IntakeDeps, texts: readonly string[]): Promise<DispatchedFrame[]> {
  const read = texts.map(readIntakeFrame);
  const threadIds = new Set<string>();
  for (const frame of read) if ('routed' in frame) threadIds.add(frame.routed.threadId);
  const threads = threadIds.size === 0 ? new Map() : await lookUpThreads(deps.registry, threadIds, deps.log);
  return read.map((frame) => {
    if ('answered' in frame) return frame.answered;
    const thread = threads.get(frame.routed.threadId);
    return thread === 'failed' ? lookupFailed(frame.routed) : handOverFrame(deps, frame.routed, thread);
  });
}
