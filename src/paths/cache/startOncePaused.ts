/**
 * A searched root's watch starts once calls on it pause this long, not with the keystroke that asked: its start
 * crawls the whole tree on a thread of its own (1–2 s of a core for 135k entries), and with a word being typed
 * into quick-open that crawl took a core from the keystrokes on a 2-core machine (issue 26). Until then calls are
 * answered from the last listing, revalidated by stamps in the background, as while a watch starts.
 */
export const WATCH_AFTER_PAUSE_MS = 300;
/** Calls that never pause (a script polling a root) start the watch this long after they asked for it. */
export const WATCH_AT_LATEST_MS = 10_000;

/** Runs `start` once calls pause; `want` on every call, `cancel` on close. `wanted`: a start is pending. */
export interface PausedStart {
  want(): void;
  cancel(): void;
  readonly wanted: boolean;
}

export function startOncePaused(start: () => void, pauseMs = WATCH_AFTER_PAUSE_MS, atLatestMs = WATCH_AT_LATEST_MS): PausedStart {
  let timer: NodeJS.Timeout | null = null;
  let wantedAt: number | null = null;
  const cancel = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    wantedAt = null;
  };
  const fire = (): void => {
    cancel();
    start();
  };
  return {
    want() {
      const now = performance.now();
      wantedAt ??= now;
      if (timer !== null) clearTimeout(timer);
      if (now - wantedAt >= atLatestMs) return fire();
      timer = setTimeout(fire, pauseMs);
      timer.unref();
    },
    cancel,
    get wanted() {
      return wantedAt !== null;
    },
  };
}
