import fc from 'fast-check';
import * as b from './sdk';

/**
 * Whole client and agent-started turns for a few threads, merged in a random order that keeps each thread's
 * own frame order (as concurrent runs on one daemon link would).
 */
export function interleavedTurns(threadIds: readonly string[]): fc.Arbitrary<unknown[]> {
  const turns = fc.array(
    fc.record({
      byAgent: fc.boolean(),
      deltas: fc.array(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }),
    }),
    { minLength: 1, maxLength: 3 },
  );
  return fc
    .tuple(
      fc.array(turns, { minLength: threadIds.length, maxLength: threadIds.length }),
      fc.array(fc.nat(threadIds.length - 1), { maxLength: 200 }),
    )
    .map(([turnsPerThread, picks]) => {
      const queues = threadIds.map((threadId, i) =>
        turnsPerThread[i]!.flatMap(({ byAgent, deltas }) =>
          byAgent ? b.agentStartedTurn(threadId, 'injected', deltas) : b.clientTurn(threadId, 'prompt', deltas),
        ),
      );
      const merged: unknown[] = [];
      for (const pick of picks) {
        const queue = queues[pick]!;
        if (queue.length > 0) merged.push(queue.shift());
      }
      for (const queue of queues) merged.push(...queue);
      return merged;
    });
}
