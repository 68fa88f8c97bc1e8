import type { AgentSession, AgentSessionEvent } from '@mariozechner/pi-coding-agent';

/**
 * Knows when a pi session is idle *as seen by our subscriber*.
 *
 * pi 0.73 hands agent events to subscribers through an async queue that first awaits extension handlers, so
 * `prompt()` (and `agent.waitForIdle()`) can resolve before our listener has received the run's `agent_end`
 * (measured: a slow `agent_end` extension handler). Idle therefore means: the agent has no active run, and
 * every `agent_end` the agent emitted has also been delivered to us.
 */
export interface RunTracker {
  /** Call from the session subscriber for every delivered event. */
  delivered(event: AgentSessionEvent): void;
  /** Resolves once the session is idle and every run's events have been delivered. */
  whenIdle(): Promise<void>;
  isIdle(): boolean;
  dispose(): void;
}

export function createRunTracker(session: AgentSession): RunTracker {
  let endsEmitted = 0;
  let endsDelivered = 0;
  let waiters: Array<() => void> = [];
  let disposed = false;
  // The agent calls its own listeners synchronously as it emits, so this count is never behind.
  const unsubscribe = session.agent.subscribe((event) => {
    if (event.type === 'agent_end') endsEmitted += 1;
  });
  const isIdle = () => !session.isStreaming && endsDelivered >= endsEmitted;
  const nextDeliveredEnd = () => new Promise<void>((resolve) => waiters.push(resolve));

  return {
    delivered(event) {
      if (event.type !== 'agent_end') return;
      endsDelivered += 1;
      const woken = waiters;
      waiters = [];
      woken.forEach((wake) => wake());
    },
    async whenIdle() {
      while (!disposed) {
        await session.agent.waitForIdle();
        if (isIdle()) return;
        // Either a new run started (its agent_end will come) or this run's agent_end is still queued.
        await nextDeliveredEnd();
      }
    },
    isIdle,
    dispose() {
      disposed = true;
      unsubscribe();
      const woken = waiters;
      waiters = [];
      woken.forEach((wake) => wake());
    },
  };
}
