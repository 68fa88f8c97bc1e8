import { expect } from 'chai';
import { promises as fs } from 'node:fs';
import { createGroupCommit } from '../../src/store/nedb/segments/groupCommit';
import { Journal, journalFilesIn } from '../../src/store/nedb/segments/journal';
import { makeTempDir } from '../helpers/temp/dir';

describe('group commit: the next group is prepared while the one before waits for its fsync', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => (temp = await makeTempDir()));
  afterEach(() => temp.remove());

  it('starts committing the next group before the first is acked, and acks each append only with its own outcome', async () => {
    const started: string[][] = [];
    const syncs: Array<() => void> = [];
    const commits = createGroupCommit<string, string>('batch', async (group) => {
      started.push([...group]);
      // The group's outcome waits for a "fsync" this test releases by hand.
      return { outcome: new Promise<string[]>((resolve) => syncs.push(() => resolve(group.map((item) => `${item} stored`)))) };
    });
    const acked: string[] = [];
    const first = commits.submit('a').then((result) => acked.push(result));
    await Promise.resolve();
    const second = [commits.submit('b'), commits.submit('c')].map((ack) => ack.then((result) => acked.push(result)));
    await new Promise((resolve) => setImmediate(resolve));
    // Idle, each append is committed at once; b and c did not wait for a's sync.
    expect(started).to.deep.equal([['a'], ['b'], ['c']]);
    expect(acked).to.deep.equal([]); // and nothing is acked before its sync
    syncs[0]!();
    await first;
    expect(acked).to.deep.equal(['a stored']);
    syncs[1]!();
    syncs[2]!();
    await Promise.all(second);
    expect(acked).to.deep.equal(['a stored', 'b stored', 'c stored']);
  });

  it('writes the journal in the order of the appends, also when they are not awaited one by one', async () => {
    const journal = await Journal.open(temp.dir);
    await Promise.all(Array.from({ length: 50 }, (_, i) => journal.append(`line ${i}\n`)));
    const [file] = await journalFilesIn(temp.dir);
    expect((await fs.readFile(file!, 'utf8')).split('\n').filter(Boolean)).to.deep.equal(Array.from({ length: 50 }, (_, i) => `line ${i}`));
    const sealed = await journal.seal();
    expect(sealed).to.equal(file);
    await journal.close();
    // The next file was created ahead of need; unused, it is removed at close.
    expect(await journalFilesIn(temp.dir)).to.deep.equal([file]);
  });

  it('has the file a checkpoint switches to created before the checkpoint, so the commit that starts one waits for no file', async () => {
    const journal = await Journal.open(temp.dir);
    await journal.append('before\n');
    const [current] = await journalFilesIn(temp.dir);
    // The next file is created (and synced) while the current one is written, not when the seal needs it.
    while ((await journalFilesIn(temp.dir)).length < 2) await new Promise((resolve) => setImmediate(resolve));
    const [, next] = await journalFilesIn(temp.dir);
    expect(await journal.seal()).to.equal(current);
    await journal.append('after\n');
    expect(await fs.readFile(next!, 'utf8')).to.equal('after\n');
    await journal.close();
    // Files created ahead and never written are removed at close.
    expect(await journalFilesIn(temp.dir)).to.deep.equal([current, next]);
  });
});
