import { expect } from 'chai';
import { sharedDirectoryReader, type DirectoryReader } from '../../src/paths/walk/directoryReader';
import { createTreeSnapshot } from '../../src/paths/walk/treeSnapshot';
import { createTempTree, removeTempTree } from '../helpers/temp/tree';

/**
 * A revalidation nobody waits for (answered from the last listing while the watch starts, issue 26) keeps one
 * batch in flight, so it takes one reading thread and not every core; one a call waits for keeps them all busy.
 */
describe('revalidation pace', () => {
  let root: string;
  beforeEach(() => {
    const folders = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`folder-${i}`, { 'file.ts': '' }]));
    root = createTempTree(folders);
  });
  afterEach(() => removeTempTree(root));

  const countingReader = (): { reader: DirectoryReader; mostInFlight(): number; reset(): void } => {
    const shared = sharedDirectoryReader();
    let inFlight = 0;
    let most = 0;
    return {
      reader: {
        parallelism: 4,
        read: (paths) => shared.read(paths),
        stat: async (paths) => {
          inFlight += 1;
          most = Math.max(most, inFlight);
          try {
            await new Promise((resolve) => setTimeout(resolve, 5));
            return await shared.stat(paths);
          } finally {
            inFlight -= 1;
          }
        },
      },
      mostInFlight: () => most,
      reset: () => (most = 0),
    };
  };

  it('in the background one batch of stats is in flight at a time; a waited-for one keeps all threads busy; both give the same listing', async () => {
    const counting = countingReader();
    const snapshot = createTreeSnapshot(root, { reader: counting.reader, racyWindowMs: 0 });
    const first = await snapshot.refresh();
    await snapshot.refresh(); // the stamps of the first listing are taken before this one starts
    counting.reset();
    const waited = await snapshot.refresh(undefined, 'foreground');
    expect(counting.mostInFlight()).to.equal(4);
    counting.reset();
    const background = await snapshot.refresh(undefined, 'background');
    expect(counting.mostInFlight()).to.equal(1);
    expect(background.entries.map((entry) => entry.path)).to.deep.equal(first.entries.map((entry) => entry.path));
    expect(waited.entries.map((entry) => entry.path)).to.deep.equal(first.entries.map((entry) => entry.path));
  });

  it("a fresh read's stamps at the background pace: one batch at a time (2,100 directories: three batches)", async () => {
    removeTempTree(root);
    root = createTempTree(Object.fromEntries(Array.from({ length: 2_100 }, (_, i) => [`d${i}`, {}])));
    for (const [stampPace, most] of [
      ['foreground', 3],
      ['background', 1],
    ] as const) {
      const counting = countingReader();
      const snapshot = createTreeSnapshot(root, { reader: counting.reader, stampPace });
      await snapshot.refresh(); // the walk reads, it stats nothing
      expect(counting.mostInFlight()).to.equal(0);
      // Queued behind the first read's stamps; itself one batch at a time, so the most in flight is the stamps'.
      await snapshot.refresh(undefined, 'background');
      expect(counting.mostInFlight(), stampPace).to.equal(most);
    }
  });
});
