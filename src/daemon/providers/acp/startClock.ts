/**
 * The clock of one agent start (issue 37): `within(work)` rejects once the start has taken `timeoutMs` (time spent
 * in `paused` work not counted: Gemini CLI's wait for its session's next minute is ours, not the agent's) or the
 * moment `cut` aborts (a stop, a delete, the thread's close), with its reason. `over()` says it did; the caller
 * then ends the agent without waiting for an answer it will never get.
 */
export interface StartClock {
  within<T>(work: Promise<T>): Promise<T>;
  paused<T>(work: Promise<T>): Promise<T>;
  over(): boolean;
  stop(): void;
}

export function startClock(timeoutMs: number | undefined, cut?: AbortSignal): StartClock {
  let fail!: (reason: Error) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => undefined); // observed through `within`; never an unhandled rejection when nothing waits
  let reason: Error | undefined;
  const end = (error: Error) => {
    if (reason) return;
    reason = error;
    fail(error);
  };
  let timer: NodeJS.Timeout | undefined;
  let left = timeoutMs;
  let since = Date.now();
  const arm = () => {
    if (left === undefined) return;
    since = Date.now();
    timer = setTimeout(() => end(new Error(`it did not start within ${timeoutMs} ms (ATS_AGENT_START_TIMEOUT_MS)`)), Math.max(0, left));
  };
  const disarm = () => {
    clearTimeout(timer);
    timer = undefined;
    if (left !== undefined) left -= Date.now() - since;
  };
  const onCut = () => end(cut?.reason instanceof Error ? cut.reason : new Error(String(cut?.reason ?? 'the start was cut short')));
  if (cut?.aborted) onCut();
  cut?.addEventListener('abort', onCut, { once: true });
  arm();
  return {
    within: (work) => Promise.race([work, failed]),
    async paused(work) {
      disarm();
      try {
        return await work;
      } finally {
        if (!reason) arm();
      }
    },
    over: () => reason !== undefined,
    stop() {
      clearTimeout(timer);
      cut?.removeEventListener('abort', onCut);
    },
  };
}
