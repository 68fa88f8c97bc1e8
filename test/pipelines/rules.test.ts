import { expect } from 'chai';
import { map, mergeMap, toArray } from 'rxjs';
import { threadEvents } from '../../pipelines/thread-events';
import { createMemoryEventStore } from '../../src/store/memoryEventStore';
import { sequentialIds, testScheduler } from '../helpers/pipeline/marbles';
import type { StoredThreadEvent } from '../../src/store/eventStore';
import { threadViolations } from '../helpers/pipeline/invariants';
import { RULE_CASES, summariseRow } from '../helpers/pipeline/ruleCases';

/** One frame per marble letter; the pipeline's rows, summarised, arrive as one array when the input completes. */
function marblesFor(frames: unknown[]) {
  if (frames.length > 26) throw new Error('a rule case has more frames than marble letters');
  const letters = frames.map((_, i) => String.fromCharCode(97 + i));
  const values = Object.fromEntries(frames.map((frame, i) => [letters[i]!, { correlationId: i + 1, frame }]));
  return { input: `${letters.join('')}|`, output: `${'-'.repeat(frames.length)}(r|)`, values };
}

describe('rules E1–E7 through the whole pipeline (marbles)', () => {
  for (const { name, frames, expected, turnOpenAfter } of RULE_CASES) {
    it(name, () => {
      const { input, output, values } = marblesFor(frames);
      let lastTurnOpen: boolean | undefined;
      const stored: StoredThreadEvent[] = [];
      testScheduler().run(({ cold, expectObservable }) => {
        const rows = cold(input, values).pipe(
          threadEvents({ store: createMemoryEventStore(), newId: sequentialIds('t') }),
          mergeMap((step) => {
            if (!step.ok) throw new Error(`frame ${step.correlationId} rejected: ${step.error.message}`);
            lastTurnOpen = step.value.turnOpen;
            stored.push(...step.value.rows);
            return step.value.rows;
          }),
          map(summariseRow),
          toArray(),
        );
        expectObservable(rows).toBe(output, { r: expected });
      });
      if (turnOpenAfter !== undefined) expect(lastTurnOpen).to.equal(turnOpenAfter);
      // E7 in every case: rows inside a turn carry its id, a new turn a new one; seqs gapless.
      expect(threadViolations(stored, { allowOpenTurnAtEnd: true })).to.deep.equal([]);
    });
  }
});
