import { Subscription } from 'rxjs';
import type { Registry } from '../../registry/registry';
import type { ThreadRecord } from '../../registry/records';
import type { EventHub } from '../sse/eventHub';
import { keepProviderThreadId } from './openThreadOnHost';
import { changeThreadIfLive } from './threadChanges';

/** How long a prompt answered while its agent was starting waits for the turn that names the session. */
const WAIT_MS = 10 * 60_000;

/**
 * Listens, from now, for the thread's next `turn/started` row, which names the agent session the turn runs in.
 * A host that answered a prompt while the agent was still starting (`thread.prompt`'s `starting`) could not name
 * the session; `keepOnRecord` keeps it on the record once the turn starts, so a later start (a daemon restart)
 * resumes that session rather than beginning a new conversation. Subscribed before the prompt is sent, so a row
 * stored right after the answer is not missed; `stop` when the answer named the session itself.
 */
export function sessionOfNextTurn(
  hub: EventHub,
  threadId: string,
): { keepOnRecord(registry: Registry, thread: ThreadRecord): void; stop(): void } {
  let found: ((providerThreadId: string) => void) | undefined;
  let named: string | undefined;
  const subscription = new Subscription();
  const timer = setTimeout(() => subscription.unsubscribe(), WAIT_MS);
  subscription.add(() => clearTimeout(timer));
  subscription.add(
    hub.rowsOf$(threadId).subscribe((row) => {
      if (row.type === 'turn/completed') return subscription.unsubscribe(); // ended without starting: nothing to keep
      const providerThreadId = row.type === 'turn/started' ? (row.data as { providerThreadId?: unknown }).providerThreadId : undefined;
      if (typeof providerThreadId !== 'string') return;
      subscription.unsubscribe();
      named = providerThreadId;
      found?.(providerThreadId);
    }),
  );
  return {
    keepOnRecord(registry, thread) {
      // As the thread's owner (threadChanges.ts), after the prompt's own change: never over a newer record.
      found = (providerThreadId) =>
        void changeThreadIfLive(registry, thread.id, (current) => keepProviderThreadId(registry, current, providerThreadId)).catch(
          () => undefined,
        );
      if (named !== undefined) found(named);
    },
    stop: () => subscription.unsubscribe(),
  };
}
