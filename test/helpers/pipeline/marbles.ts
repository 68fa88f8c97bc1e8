import { expect } from 'chai';
import { TestScheduler } from 'rxjs/testing';

/** A TestScheduler that compares frames with chai's deep equality (readable diffs on failure). */
export function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => {
    expect(actual).to.deep.equal(expected);
  });
}

/** Deterministic ids (`t1`, `t2`, …) so marble expectations can name turns and items. */
export function sequentialIds(prefix = 'id'): () => string {
  let next = 0;
  return () => `${prefix}${++next}`;
}
