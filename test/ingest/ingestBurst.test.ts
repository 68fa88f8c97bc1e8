import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createThreadIngest, type IngestOutcome } from '../../src/ingest/threadIngest';
import type { StoredThreadEvent } from '../../src/store/eventStore';
import { openNedbEventStore } from '../../src/store/nedb/nedbEventStore';
import { threadViolations } from '../helpers/pipeline/invariants';
import * as b from '../helpers/pipeline/sdk';
import { makeTempDir } from '../helpers/temp/dir';

const THREADS = ['A', 'B', 'C', 'D', 'E'];

/** Whole client turns of every thread, sent round-robin frame by frame, each a request with its own id. */
function interleavedRequests(deltasPerTurn: number) {
  const perThread = THREADS.map((threadId) =>
    b.clientTurn(
      threadId,
      `prompt ${threadId}`,
      Array.from({ length: deltasPerTurn }, (_, i) => `${threadId}${i} `),
    ),
  );
  const frames: Array<{ id: number; params: { threadId: string } }> = [];
  for (let i = 0; i < perThread[0]!.length; i += 1) {
    for (const turn of perThread) frames.push({ ...turn[i]!, id: frames.length + 1 } as (typeof frames)[number]);
  }
  return frames;
}

/** A journal can be deleted between listing and reading it (a checkpoint): then it holds nothing to find. */
function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

describe('thread ingest into the nedb store: a burst of requests', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => (temp = await makeTempDir()));
  afterEach(() => temp.remove());

  it('answers every request only once its rows are in the store file, each with its own gapless seqs', async () => {
    const store = await openNedbEventStore({ dataDir: temp.dir });
    const ingest = createThreadIngest({ store });
    const frames = interleavedRequests(60);
    const missingOnAnswer: string[] = [];
    // Sent back to back without awaiting, so later frames queue while earlier ones are being written.
    const outcomes = await Promise.all(
      frames.map((frame) =>
        ingest.ingest(frame).then((outcome: IngestOutcome) => {
          const rows = outcome.ok ? outcome.rows : [];
          for (const row of rows) {
            // Acked means in the fsynced journal, or already in the thread's file (after a checkpoint). The
            // journals are read first: one deleted meanwhile was written out to the thread's file before.
            const journals = readdirSync(store.eventsDir).filter((name) => name.startsWith('journal-'));
            const stored = [
              ...journals.map((name) => readIfThere(path.join(store.eventsDir, name))),
              readIfThere(store.threadFilePath(row.threadId)),
            ];
            if (!stored.some((text) => text.includes(row.id))) missingOnAnswer.push(`request ${frame.id}: seq ${row.threadId}${row.seq}`);
          }
          return outcome;
        }),
      ),
    );
    expect(outcomes.filter((outcome) => !outcome.ok)).to.deep.equal([]);
    expect(missingOnAnswer).to.deep.equal([]);

    const rowsOf = (outcome: IngestOutcome): StoredThreadEvent[] => (outcome.ok ? outcome.rows : []);
    outcomes.forEach((outcome, i) => {
      for (const row of rowsOf(outcome)) expect(row.threadId, `request ${frames[i]!.id}`).to.equal(frames[i]!.params.threadId);
    });
    const deltaRequest = frames.findIndex((frame) => JSON.stringify(frame).includes('"delta":"C17 "'));
    expect(rowsOf(outcomes[deltaRequest]!).map((row) => [row.type, row.data['delta']])).to.deep.equal([
      ['item/agentMessage/delta', 'C17 '],
    ]);

    for (const threadId of THREADS) {
      const answered = outcomes.flatMap(rowsOf).filter((row) => row.threadId === threadId);
      expect(threadViolations(answered), threadId).to.deep.equal([]);
      expect(await store.list(threadId), threadId).to.deep.equal(answered);
    }
    await ingest.close();
    await store.close();
  });
});
