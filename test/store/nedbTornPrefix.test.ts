import { expect } from 'chai';
import fc from 'fast-check';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { NewThreadEvent } from '../../src/store/eventStore';
import { openNedbEventStore } from '../../src/store/nedb/nedbEventStore';
import { makeTempDir } from '../helpers/temp/dir';

const event = (delta: string): NewThreadEvent =>
  ({
    threadId: 'A',
    type: 'item/agentMessage/delta',
    turnId: 't1',
    scope: { kind: 'turn', turnId: 't1' },
    data: { providerThreadId: 'A', itemId: 'i', delta },
  }) as NewThreadEvent;

describe('nedb event store: a thread file cut at any byte', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => (temp = await makeTempDir()));
  afterEach(() => temp.remove());

  it('property: keeps exactly the rows whose whole document survived, and the next append continues after them', async () => {
    const source = path.join(temp.dir, 'source');
    const store = await openNedbEventStore({ dataDir: source });
    const rows = await store.append(['plain', 'quote " and \\ slash', 'line\nbreak', 'ünïcødé 🙂', '{"looks":"like json"}\n'].map(event));
    await store.close();
    const file = store.threadFilePath('A');
    const whole = await fs.readFile(file);
    const lineEnds = [...whole.entries()].filter(([, byte]) => byte === 0x0a).map(([at]) => at + 1);
    let run = 0;
    await fc.assert(
      // Any byte, and the edges that matter: just before a line's break (a whole document: kept) and after it.
      fc.asyncProperty(
        fc.oneof(
          fc.integer({ min: 0, max: whole.length }),
          fc.constantFrom(...lineEnds.map((end) => end - 1)),
          fc.constantFrom(...lineEnds),
        ),
        async (cut) => {
          const dataDir = path.join(temp.dir, `cut-${run++}`);
          await fs.cp(source, dataDir, { recursive: true });
          const copy = path.join(dataDir, path.relative(source, file));
          await fs.writeFile(copy, whole.subarray(0, cut));
          const reopened = await openNedbEventStore({ dataDir });
          try {
            const kept = lineEnds.filter((end) => end - 1 <= cut).length; // the `\n` alone missing still leaves a whole row
            expect(await reopened.list('A'), `cut at ${cut}`).to.deep.equal(rows.slice(0, kept));
            expect((await reopened.append([event('next')]))[0]!.seq).to.equal(kept + 1);
            expect((await reopened.list('A')).map((row) => row.seq)).to.deep.equal(Array.from({ length: kept + 1 }, (_, i) => i + 1));
          } finally {
            await reopened.close();
            await fs.rm(dataDir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
