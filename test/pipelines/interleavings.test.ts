import { expect } from 'chai';
import fc from 'fast-check';
import { createThreadIngest } from '../../src/ingest/threadIngest';
import { openNedbEventStore } from '../../src/store/nedb/nedbEventStore';
import { interleavedTurns } from '../helpers/pipeline/interleave';
import { threadViolations } from '../helpers/pipeline/invariants';
import { rowsOfThread, runPipeline } from '../helpers/pipeline/run';
import { makeTempDir } from '../helpers/temp/dir';

const THREADS = ['A', 'B', 'C'];

describe('random interleavings of many threads', () => {
  it('property: each thread reads correctly (seqs exactly 1..n, each turn completed once, items match deltas)', async () => {
    await fc.assert(
      fc.asyncProperty(interleavedTurns(THREADS), async (frames) => {
        const { rows } = await runPipeline(frames);
        for (const threadId of THREADS) expect(threadViolations(rowsOfThread(rows, threadId)), threadId).to.deep.equal([]);
      }),
      { numRuns: 100 },
    );
  });

  it('property: the same through createThreadIngest into nedb, frames sent without waiting for each other', async () => {
    await fc.assert(
      fc.asyncProperty(interleavedTurns(THREADS), async (frames) => {
        const { dir, remove } = await makeTempDir();
        const store = await openNedbEventStore({ dataDir: dir });
        const ingest = createThreadIngest({ store });
        try {
          const outcomes = await Promise.all(frames.map((frame) => ingest.ingest(frame)));
          expect(outcomes.filter((outcome) => !outcome.ok)).to.deep.equal([]);
          for (const threadId of THREADS) {
            const rows = await store.list(threadId);
            expect(threadViolations(rows), threadId).to.deep.equal([]);
            expect(await ingest.threadStatus(threadId)).to.equal('idle');
          }
        } finally {
          await ingest.close();
          await store.close();
          await remove();
        }
      }),
      { numRuns: 20 },
    );
  });
});
