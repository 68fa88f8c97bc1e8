/**
 * An agent can emit frames before its `openThread` has resolved: a pi extension may start a run from
 * `session_start`, which runs while the session opens. Until the daemon knows the agent's providerThreadId,
 * those frames would be stored under the thread id instead; so they wait here and go out in their original
 * order the moment `release()` is called (right after the id is recorded), and every later frame goes
 * straight through.
 */
export interface HeldFrames {
  emit(frame: unknown): void;
  /** Sends what was held, in order; from now on `emit` forwards at once. Idempotent. */
  release(): void;
}

export function holdFramesUntilOpen(forward: (frame: unknown) => void): HeldFrames {
  let held: unknown[] | undefined = [];
  return {
    emit(frame) {
      if (held) held.push(frame);
      else forward(frame);
    },
    release() {
      const waiting = held ?? [];
      held = undefined;
      waiting.forEach(forward);
    },
  };
}
