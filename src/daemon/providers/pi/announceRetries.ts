import type { AgentSessionEvent } from '@mariozechner/pi-coding-agent';

type Deliver = (event: AgentSessionEvent) => void;

/**
 * pi 0.73's `agent_end` has no `willRetry` (1.x and the spec's payload have it). Without it a run that pi is
 * about to retry looks finished, and the retry would open a second turn. pi announces the retry by emitting
 * `auto_retry_start` synchronously right after delivering that `agent_end`, so holding the `agent_end` for one
 * microtask is enough to know: it goes out with `willRetry` set, then everything else, in the original order.
 */
export function announceRetries(deliver: Deliver): Deliver {
  let heldEnd: AgentSessionEvent | undefined;
  const release = (willRetry: boolean) => {
    const end = heldEnd;
    if (!end) return;
    heldEnd = undefined;
    deliver({ ...end, willRetry } as AgentSessionEvent);
  };
  return (event) => {
    if (heldEnd) release(event.type === 'auto_retry_start');
    if (event.type === 'agent_end' && !('willRetry' in event)) {
      heldEnd = event;
      queueMicrotask(() => release(false));
      return;
    }
    deliver(event);
  };
}
