import type { TestServer } from './harness';

/** A stored row as the events route answers it, loosely typed for assertions. */
export interface ThreadEvent {
  seq: number;
  type: string;
  turnId: string | null;
  data: Record<string, any>;
}

/** The agent's frames are stored asynchronously to the HTTP answer: polls the events route until `done`. */
export async function eventsUntil(t: TestServer, threadId: string, done: (events: ThreadEvent[]) => boolean): Promise<ThreadEvent[]> {
  for (;;) {
    const events: ThreadEvent[] = await t.json(`/threads/${threadId}/events?limit=1000`);
    if (done(events)) return events;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const completions = (events: ThreadEvent[]) => events.filter((event) => event.type === 'turn/completed');
export const completedTurns = (count: number) => (events: ThreadEvent[]) => completions(events).length >= count;

/** The rows of command items: their `item/started`, output deltas and `item/completed`, in order. */
export const commandRows = (events: ThreadEvent[]) =>
  events.filter(
    (event) =>
      (event.data.item?.type ?? (event.type === 'item/commandExecution/outputDelta' ? 'commandExecution' : '')) === 'commandExecution',
  );
